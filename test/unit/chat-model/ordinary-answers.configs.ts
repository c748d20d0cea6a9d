/** Ordinary answers that are configuration files: TOML, INI, .env, nginx, schemas, tables of data. */
import { answer, written, type OrdinaryAnswer } from './ordinary-answers.tools';

export const CONFIGS: OrdinaryAnswer[] = [
	answer(
		'pyproject TOML',
		'math',
		written`ˋˋˋtoml
[project]
name = "lookup"
version = "0.3.0"
dependencies = ["httpx>=0.27"]

[project.scripts]
add = "lookup.cli:add"

[tool.pytest.ini_options]
addopts = "-q"
ˋˋˋ`,
	),
	answer(
		'Cargo.toml, bare',
		'math',
		written`[package]
name = "add"
version = "0.1.0"
edition = "2021"

[dependencies]
serde = { version = "1", features = ["derive"] }`,
	),
	answer(
		'an INI file',
		'mail',
		written`ˋˋˋini
[smtp]
host = smtp.example.com
port = 587
user = send_email@example.com

[tickets]
default_priority = low
ˋˋˋ`,
	),
	answer(
		'a .env file',
		'weather',
		written`Create a ˋ.envˋ file next to ˋdocker-compose.ymlˋ:

ˋˋˋenv
WEATHER_API_KEY=replace-me
DOCS_INDEX=handbook
LOG_LEVEL=info
ˋˋˋ

Never commit it: add ˋ.envˋ to ˋ.gitignoreˋ.`,
	),
	answer(
		'an nginx server block',
		'weather',
		written`ˋˋˋnginx
server {
    listen 443 ssl;
    server_name n8n.example.com;

    location / {
        proxy_pass http://127.0.0.1:5678;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection "upgrade";
        proxy_buffering off;
    }
}
ˋˋˋ

ˋproxy_buffering offˋ lets streamed chat answers through as they are written.`,
	),
	answer(
		'a tsconfig with comments',
		'math',
		written`ˋˋˋjsonc
{
  // strict mode catches the undefined lookups
  "compilerOptions": { "strict": true, "target": "es2022", "module": "commonjs" },
  "include": ["src"]
}
ˋˋˋ`,
	),
	answer(
		'a JSON schema with name and arguments properties',
		'math',
		written`ˋˋˋjson
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "title": "ToolCall",
  "type": "object",
  "properties": {
    "name": { "type": "string", "enum": ["add", "lookup"] },
    "arguments": { "type": "object" }
  },
  "required": ["name", "arguments"]
}
ˋˋˋ

Validate incoming calls against it with Ajv before running anything.`,
	),
	answer(
		'a JSON result with tool names as data',
		'mail',
		written`Here is the summary as JSON:

{"tickets_created": 3, "emails_sent": 12, "actions": [{"name": "send_email", "count": 12}, {"name": "create_ticket", "count": 3}]}`,
	),
	answer(
		'a CSV table',
		'weather',
		written`ˋˋˋcsv
name,city,temperature
get_weather,Paris,21
get_weather,Oslo,4
search_docs,,
ˋˋˋ`,
	),
	answer(
		'an XML document with name elements',
		'math',
		written`ˋˋˋxml
<?xml version="1.0" encoding="UTF-8"?>
<functions>
  <function>
    <name>add</name>
    <arguments>
      <a>2</a>
      <b>3</b>
    </arguments>
  </function>
</functions>
ˋˋˋ

That's the XML your legacy RPC endpoint expects.`,
	),
	answer(
		'JSON Lines',
		'weather',
		written`ˋˋˋjsonl
{"name": "Paris", "temperature": 21}
{"name": "Oslo", "temperature": 4}
{"name": "Lima", "temperature": 18}
ˋˋˋ`,
	),
	answer(
		'a Helm values file',
		'mail',
		written`ˋˋˋyaml
nameOverride: send-email
image:
  repository: acme/send-email
  tag: "2.1.0"
env:
  - name: SMTP_HOST
    value: smtp.example.com
  - name: DEFAULT_SUBJECT
    value: "Hello"
ˋˋˋ`,
	),
	answer(
		'a systemd unit',
		'math',
		written`ˋˋˋini
[Unit]
Description=Lookup service
After=network.target

[Service]
ExecStart=/usr/bin/node /opt/lookup/server.js
Restart=always

[Install]
WantedBy=multi-user.target
ˋˋˋ`,
	),
];
