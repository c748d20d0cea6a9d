/** Ordinary answers in scripting, shell, query and markup languages. */
import { answer, written, type OrdinaryAnswer } from './ordinary-answers.tools';

export const SCRIPTING: OrdinaryAnswer[] = [
	answer(
		'ruby: a hash and to_json',
		'math',
		written`ˋˋˋruby
require 'json'

call = { name: 'add', arguments: { a: 2, b: 3 } }
puts call.to_json
# => {"name":"add","arguments":{"a":2,"b":3}}
ˋˋˋ

Symbols as keys become strings in the JSON.`,
	),
	answer(
		'ruby: rspec for send_email',
		'mail',
		written`ˋˋˋruby
RSpec.describe Mailer do
  it 'sends one email' do
    mailer = Mailer.new(smtp: FakeSmtp.new)
    mailer.send_email(to: 'a@example.com', subject: 'Hi', body: 'Hello')
    expect(mailer.smtp.sent.size).to eq(1)
  end
end
ˋˋˋ`,
	),
	answer(
		'php: json_encode of an array',
		'weather',
		written`ˋˋˋphp
<?php
$call = ['name' => 'get_weather', 'arguments' => ['city' => $city, 'unit' => 'celsius']];
$ch = curl_init('https://api.example.com/run');
curl_setopt($ch, CURLOPT_POSTFIELDS, json_encode($call));
curl_setopt($ch, CURLOPT_HTTPHEADER, ['Content-Type: application/json']);
$response = curl_exec($ch);
ˋˋˋ

ˋjson_encodeˋ turns the associative array into a JSON object.`,
	),
	answer(
		'php: a Laravel controller create_ticket',
		'mail',
		written`ˋˋˋphp
public function create_ticket(Request $request)
{
    $data = $request->validate([
        'title' => 'required|string|max:200',
        'priority' => 'in:low,high',
    ]);
    $ticket = Ticket::create($data);
    return response()->json(['id' => $ticket->id], 201);
}
ˋˋˋ`,
	),
	answer(
		'sql: select with a name column',
		'math',
		written`ˋˋˋsql
SELECT name, SUM(amount) AS total
FROM orders
WHERE created_at >= DATE '2024-01-01'
GROUP BY name
ORDER BY total DESC
LIMIT 10;
ˋˋˋ

Add an index on ˋ(created_at, name)ˋ if the table is large.`,
	),
	answer(
		'sql: a function named lookup in PostgreSQL',
		'math',
		written`ˋˋˋsql
CREATE OR REPLACE FUNCTION lookup(input text)
RETURNS text LANGUAGE sql STABLE AS $$
  SELECT meaning FROM glossary WHERE word = lower(input) LIMIT 1;
$$;

SELECT lookup('otter');
ˋˋˋ`,
	),
	answer(
		'sql: JSON built in PostgreSQL',
		'weather',
		written`PostgreSQL can build the JSON for you:

ˋˋˋpostgresql
SELECT json_build_object('name', 'get_weather', 'arguments', json_build_object('city', city))
FROM favourite_cities;
ˋˋˋ`,
	),
	answer(
		'sql: unfenced one statement',
		'mail',
		written`Run UPDATE tickets SET priority = 'high' WHERE title ILIKE '%outage%'; and then check with SELECT count(*) FROM tickets WHERE priority = 'high';`,
	),
	answer(
		'bash: curl with a JSON body',
		'weather',
		written`ˋˋˋbash
curl -sS -X POST https://api.example.com/run \
  -H 'Content-Type: application/json' \
  -d '{"name": "get_weather", "arguments": {"city": "Paris"}}' | jq .
ˋˋˋ

ˋjq .ˋ pretty-prints the response.`,
	),
	answer(
		'bash: a function named lookup',
		'math',
		written`ˋˋˋsh
lookup() {
  grep -i "^$1:" glossary.txt | cut -d: -f2-
}

add() {
  echo $(( $1 + $2 ))
}

lookup otter
add 2 3
ˋˋˋ`,
	),
	answer(
		'bash: a loop over files, unfenced',
		'math',
		written`for f in *.log; do gzip "$f"; done compresses every log in the folder; add -k to keep the originals.`,
	),
	answer(
		'shell: a console session',
		'weather',
		written`ˋˋˋconsole
$ npm install openai
added 1 package in 2s
$ node -e "console.log(require('openai').VERSION)"
4.56.0
ˋˋˋ`,
	),
	answer(
		'powershell: Invoke-RestMethod',
		'mail',
		written`ˋˋˋpowershell
$body = @{
    name = 'send_email'
    arguments = @{ to = 'team@example.com'; subject = 'Report'; body = 'Attached.' }
} | ConvertTo-Json -Depth 5

Invoke-RestMethod -Uri 'https://api.example.com/run' -Method Post -Body $body -ContentType 'application/json'
ˋˋˋ

ˋ-Depthˋ matters: the default of 2 flattens nested objects.`,
	),
	answer(
		'powershell: a function with a parameter block',
		'weather',
		written`ˋˋˋps1
function Get-Weather {
    param([Parameter(Mandatory)] [string] $City)
    Invoke-RestMethod "https://wttr.in/$City?format=j1"
}

Get-Weather -City Paris
ˋˋˋ`,
	),
	answer(
		'r: a list and jsonlite',
		'math',
		written`ˋˋˋr
library(jsonlite)

call <- list(name = "add", arguments = list(a = 2, b = 3))
toJSON(call, auto_unbox = TRUE)
#> {"name":"add","arguments":{"a":2,"b":3}}
ˋˋˋ

ˋauto_unbox = TRUEˋ writes single values as scalars instead of arrays.`,
	),
	answer(
		'r: a data frame summary',
		'weather',
		written`ˋˋˋR
weather <- data.frame(city = c("Oslo", "Rome"), temperature = c(4, 19))
aggregate(temperature ~ city, data = weather, FUN = mean)
get_weather <- function(city) weather[weather$city == city, ]
get_weather("Rome")
ˋˋˋ`,
	),
	answer(
		'lua: a table and a function',
		'math',
		written`ˋˋˋlua
local call = { name = "add", arguments = { a = 2, b = 3 } }

local function add(a, b)
  return a + b
end

print(add(call.arguments.a, call.arguments.b)) -- 5
ˋˋˋ`,
	),
	answer(
		'lua: nginx openresty handler',
		'weather',
		written`ˋˋˋlua
local cjson = require "cjson"
ngx.req.read_body()
local args = cjson.decode(ngx.req.get_body_data())
ngx.say(cjson.encode({ name = args.name, ok = true }))
ˋˋˋ`,
	),
];
