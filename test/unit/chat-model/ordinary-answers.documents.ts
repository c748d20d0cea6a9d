/** Ordinary answers that are documents: JSON and YAML with `name` keys, manifests, configs. */
import { answer, written, type OrdinaryAnswer } from './ordinary-answers.tools';

export const DOCUMENTS: OrdinaryAnswer[] = [
	answer(
		'package.json, fenced',
		'math',
		written`ˋˋˋjson
{
  "name": "lookup-service",
  "version": "1.2.0",
  "main": "dist/index.js",
  "scripts": { "build": "tsc", "test": "jest" },
  "dependencies": { "express": "^4.19.2" }
}
ˋˋˋ`,
	),
	answer(
		'package.json, bare',
		'math',
		written`{
  "name": "add",
  "version": "0.0.1",
  "description": "Adds numbers",
  "bin": { "add": "bin/add.js" },
  "keywords": ["math", "cli"]
}`,
	),
	answer(
		'a JSON array of people, bare',
		'mail',
		written`[
  {"name": "Alice Martin", "email": "alice@example.com", "role": "admin"},
  {"name": "Bruno Silva", "email": "bruno@example.com", "role": "editor"},
  {"name": "Chen Wei", "email": "chen@example.com", "role": "viewer"}
]`,
	),
	answer(
		'a JSON object with name and parameters, bare, no bound tool',
		'weather',
		written`{"name": "forecast", "parameters": {"days": 3, "city": "Porto"}, "description": "A 3-day forecast"}`,
	),
	answer(
		'a JSON object with the tool name as a value among data',
		'weather',
		written`{"job": "get_weather", "schedule": "0 * * * *", "enabled": true, "lastRun": "2024-05-01T10:00:00Z"}`,
	),
	answer(
		'an n8n workflow JSON',
		'math',
		written`Paste this into the editor (Ctrl+V):

ˋˋˋjson
{
  "nodes": [
    {
      "parameters": { "jsCode": "return [{ json: { sum: 2 + 3 } }];" },
      "name": "add",
      "type": "n8n-nodes-base.code",
      "typeVersion": 2,
      "position": [460, 300]
    },
    {
      "parameters": {},
      "name": "When clicking 'Test workflow'",
      "type": "n8n-nodes-base.manualTrigger",
      "typeVersion": 1,
      "position": [240, 300]
    }
  ],
  "connections": {
    "When clicking 'Test workflow'": { "main": [[{ "node": "add", "type": "main", "index": 0 }]] }
  }
}
ˋˋˋ`,
	),
	answer(
		'an OpenAPI fragment in YAML',
		'weather',
		written`Here is the path in OpenAPI 3.1:

ˋˋˋyaml
paths:
  /weather:
    get:
      operationId: get_weather
      parameters:
        - name: city
          in: query
          required: true
          schema:
            type: string
        - name: unit
          in: query
          schema:
            type: string
            enum: [celsius, fahrenheit]
      responses:
        '200':
          description: The current weather
ˋˋˋ`,
	),
	answer(
		'an OpenAPI fragment in JSON, bare',
		'weather',
		written`{
  "openapi": "3.0.3",
  "info": { "title": "Docs search", "version": "1.0" },
  "paths": {
    "/search": {
      "get": {
        "operationId": "search_docs",
        "parameters": [{ "name": "query", "in": "query", "required": true, "schema": { "type": "string" } }]
      }
    }
  }
}`,
	),
	answer(
		'a Kubernetes deployment',
		'math',
		written`ˋˋˋyaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: lookup
  labels:
    app: lookup
spec:
  replicas: 2
  selector:
    matchLabels:
      app: lookup
  template:
    metadata:
      labels:
        app: lookup
    spec:
      containers:
        - name: lookup
          image: ghcr.io/acme/lookup:1.4.2
          args: ["--port", "8080"]
          ports:
            - containerPort: 8080
ˋˋˋ

Apply it with ˋkubectl apply -f deployment.yamlˋ.`,
	),
	answer(
		'a docker-compose file, bare YAML',
		'mail',
		written`services:
  mailer:
    image: acme/send_email:latest
    environment:
      SMTP_HOST: smtp.example.com
      SMTP_PORT: "587"
    command: ["node", "server.js"]
  tickets:
    image: acme/create_ticket:latest
    depends_on: [mailer]`,
	),
	answer(
		'docker-compose for n8n, fenced',
		'weather',
		written`ˋˋˋyaml
services:
  n8n:
    image: docker.n8n.io/n8nio/n8n
    ports:
      - "5678:5678"
    environment:
      - N8N_HOST=n8n.example.com
      - WEBHOOK_URL=https://n8n.example.com/
    volumes:
      - n8n_data:/home/node/.n8n
volumes:
  n8n_data:
ˋˋˋ

Start it with ˋdocker compose up -dˋ.`,
	),
	answer(
		'a YAML list of tools for an agent config',
		'weather',
		written`ˋˋˋyaml
tools:
  - name: get_weather
    description: Current weather for a city
    parameters:
      city: string
  - name: search_docs
    description: Search the handbook
    parameters:
      query: string
ˋˋˋ

This is only the configuration; the agent decides when to call each one.`,
	),
];
