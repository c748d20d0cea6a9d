/** More ordinary answers in code: front-end frameworks, data science, and less common languages. */
import { answer, written, type OrdinaryAnswer } from './ordinary-answers.tools';

export const MORE_CODE: OrdinaryAnswer[] = [
	answer(
		'react: a component calling get_weather',
		'weather',
		written`ˋˋˋjsx
export function Weather({ city }) {
  const [data, setData] = useState(null);
  useEffect(() => {
    get_weather({ city }).then(setData);
  }, [city]);
  if (!data) return <p>Loading…</p>;
  return <p>{city}: {data.temperature} °C</p>;
}
ˋˋˋ

ˋuseEffectˋ re-runs when ˋcityˋ changes.`,
	),
	answer(
		'vue: a search box',
		'weather',
		written`ˋˋˋvue
<script setup>
import { ref } from 'vue';
const query = ref('');
const results = ref([]);
async function search() {
  results.value = await search_docs({ query: query.value, limit: 10 });
}
</script>

<template>
  <input v-model="query" @keyup.enter="search" />
  <li v-for="r in results" :key="r.id">{{ r.title }}</li>
</template>
ˋˋˋ`,
	),
	answer(
		'svelte: a form',
		'mail',
		written`ˋˋˋsvelte
<script>
  let to = '', subject = '', body = '';
  const send = () => fetch('/api/send_email', { method: 'POST', body: JSON.stringify({ to, subject, body }) });
</script>

<input bind:value={to} placeholder="To" />
<input bind:value={subject} placeholder="Subject" />
<textarea bind:value={body}></textarea>
<button on:click={send}>Send</button>
ˋˋˋ`,
	),
	answer(
		'next.js: an API route',
		'mail',
		written`ˋˋˋts
// app/api/tickets/route.ts
export async function POST(request: Request) {
  const { title, priority = 'low' } = await request.json();
  const ticket = await create_ticket({ title, priority });
  return Response.json(ticket, { status: 201 });
}
ˋˋˋ`,
	),
	answer(
		'pandas: group by and to_json',
		'weather',
		written`ˋˋˋpython
import pandas as pd

df = pd.read_csv("weather.csv")
summary = df.groupby("city", as_index=False)["temperature"].mean()
print(summary.to_json(orient="records"))
# [{"city":"Oslo","temperature":4.2},{"city":"Rome","temperature":18.9}]
ˋˋˋ`,
	),
	answer(
		'numpy: vectorised add',
		'math',
		written`ˋˋˋpython
import numpy as np

a = np.array([1, 2, 3])
b = np.array([4, 5, 6])
print(np.add(a, b))  # [5 7 9]
ˋˋˋ

ˋa + bˋ does the same; ˋnp.addˋ also takes ˋout=ˋ to write in place.`,
	),
	answer(
		'julia: a function and a test',
		'math',
		written`ˋˋˋjulia
add(a, b) = a + b

using Test
@testset "add" begin
    @test add(2, 3) == 5
end
ˋˋˋ`,
	),
	answer(
		'matlab: a struct',
		'weather',
		written`ˋˋˋmatlab
call = struct('name', 'get_weather', 'arguments', struct('city', 'Oslo'));
body = jsonencode(call);
response = webwrite('https://api.example.com/run', body, weboptions('MediaType', 'application/json'));
ˋˋˋ`,
	),
	answer(
		'groovy: a Jenkinsfile',
		'mail',
		written`ˋˋˋgroovy
pipeline {
  agent any
  stages {
    stage('Test') { steps { sh 'npm test' } }
  }
  post {
    failure {
      mail to: 'team@example.com', subject: "Build failed: $\{env.JOB_NAME}", body: "See $\{env.BUILD_URL}"
    }
  }
}
ˋˋˋ`,
	),
	answer(
		'objective-c: a dictionary',
		'math',
		written`ˋˋˋobjc
NSDictionary *call = @{ @"name": @"add", @"arguments": @{ @"a": @2, @"b": @3 } };
NSData *json = [NSJSONSerialization dataWithJSONObject:call options:0 error:nil];
ˋˋˋ`,
	),
	answer(
		'solidity: a function named add',
		'math',
		written`ˋˋˋsolidity
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

contract Calculator {
    function add(uint256 a, uint256 b) external pure returns (uint256) {
        return a + b;
    }
}
ˋˋˋ

Overflow reverts automatically since 0.8.`,
	),
	answer(
		'clojure: a map',
		'weather',
		written`ˋˋˋclojure
(def call {:name "get_weather" :arguments {:city "Kyiv"}})
(println (json/write-str call))
ˋˋˋ`,
	),
	answer(
		'f#: a record',
		'mail',
		written`ˋˋˋfsharp
type Ticket = { Title: string; Priority: string }
let createTicket title = { Title = title; Priority = "low" }
printfn "%A" (createTicket "Broken chair")
ˋˋˋ`,
	),
	answer(
		'erlang: a map',
		'math',
		written`ˋˋˋerlang
Call = #{name => <<"lookup">>, arguments => #{input => <<"otter">>}},
jsx:encode(Call).
ˋˋˋ`,
	),
	answer(
		'zig: a function',
		'math',
		written`ˋˋˋzig
fn add(a: i32, b: i32) i32 {
    return a + b;
}

test "add" {
    try std.testing.expectEqual(@as(i32, 5), add(2, 3));
}
ˋˋˋ`,
	),
	answer(
		'vba: a macro',
		'mail',
		written`ˋˋˋvba
Sub SendEmail()
    Dim mail As Object
    Set mail = CreateObject("Outlook.Application").CreateItem(0)
    mail.To = Range("A2").Value
    mail.Subject = "Monthly report"
    mail.Send
End Sub
ˋˋˋ`,
	),
	answer(
		'assembly: x86-64 add',
		'math',
		written`ˋˋˋasm
add:
    lea eax, [rdi + rsi]
    ret
ˋˋˋ

With the System V calling convention, the arguments come in ˋrdiˋ and ˋrsiˋ.`,
	),
	answer(
		'protobuf: a message',
		'weather',
		written`ˋˋˋprotobuf
syntax = "proto3";

message GetWeatherRequest {
  string city = 1;
  string unit = 2;
}

service Weather {
  rpc GetWeather(GetWeatherRequest) returns (WeatherReply);
}
ˋˋˋ`,
	),
	answer(
		'terraform: a resource',
		'mail',
		written`ˋˋˋhcl
resource "aws_ses_email_identity" "send_email" {
  email = "noreply@example.com"
}

output "name" {
  value = aws_ses_email_identity.send_email.email
}
ˋˋˋ`,
	),
	answer(
		'ansible: a playbook',
		'mail',
		written`ˋˋˋyaml
- name: Notify the team
  hosts: localhost
  tasks:
    - name: send_email
      community.general.mail:
        to: team@example.com
        subject: Deploy finished
        body: "Version {{ version }} is live."
ˋˋˋ`,
	),
	answer(
		'a Dockerfile',
		'weather',
		written`ˋˋˋdockerfile
FROM node:20-alpine
WORKDIR /app
COPY package*.json ./
RUN npm ci --omit=dev
COPY . .
CMD ["node", "get_weather.js"]
ˋˋˋ`,
	),
	answer(
		'a Makefile',
		'math',
		written`ˋˋˋmakefile
add: add.c
	$(CC) -O2 -o $@ $<

test: add
	./add 2 3 | grep -q 5
ˋˋˋ`,
	),
	answer(
		'git commands',
		'mail',
		written`ˋˋˋbash
git switch -c fix/send-email-timeout
git commit -am "send_email: retry once on timeout"
git push -u origin fix/send-email-timeout
ˋˋˋ`,
	),
	answer(
		'a cron line explained',
		'weather',
		written`ˋ*/15 6-22 * * 1-5 /usr/local/bin/get_weather --city Paris >> /var/log/weather.log 2>&1ˋ runs every 15 minutes from 6:00 to 22:45 on weekdays.`,
	),
	answer(
		'an Excel formula',
		'math',
		written`Use ˋ=XLOOKUP(A2, Glossary!A:A, Glossary!B:B, "not found")ˋ: it looks the word in A2 up in the Glossary sheet, and ˋ=SUM(B2:B10)ˋ adds the column.`,
	),
	answer(
		'a Prometheus alert',
		'mail',
		written`ˋˋˋyaml
groups:
  - name: email
    rules:
      - alert: SendEmailFailing
        expr: rate(send_email_errors_total[5m]) > 0.1
        for: 10m
        labels:
          severity: page
ˋˋˋ`,
	),
	answer(
		'a JSON Patch document, bare',
		'math',
		written`[
  { "op": "replace", "path": "/name", "value": "add" },
  { "op": "add", "path": "/arguments/c", "value": 4 }
]`,
	),
	answer(
		'a jq filter',
		'weather',
		written`ˋjq '.list[] | {name: .name, temp: .main.temp}' forecast.jsonˋ prints one object per city with its name and temperature.`,
	),
	answer(
		'an awk one-liner',
		'math',
		written`ˋˋˋbash
awk -F, '{ sum += $2 } END { print "total:", sum }' orders.csv
ˋˋˋ`,
	),
	answer(
		'a Deno server',
		'weather',
		written`ˋˋˋts
Deno.serve(async (req) => {
  const { city } = await req.json();
  return Response.json({ name: 'get_weather', city, temperature: 17 });
});
ˋˋˋ`,
	),
];
