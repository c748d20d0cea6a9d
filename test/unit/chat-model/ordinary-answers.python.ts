/** Ordinary answers in Python: calls, dicts, JSON built, tools' namesakes and their tests. */
import { answer, written, type OrdinaryAnswer } from './ordinary-answers.tools';

export const PYTHON: OrdinaryAnswer[] = [
	answer(
		'python: requests.get with a timeout, fenced',
		'weather',
		written`You can pass the timeout as a keyword argument:

ˋˋˋpython
requests.get(url=url, timeout=5)
ˋˋˋ

If the server does not answer within 5 seconds, ˋrequests.exceptions.Timeoutˋ is raised.`,
	),
	answer(
		'python: a dict with name and age',
		'math',
		written`In Python you build it with a dict literal:

ˋˋˋpython
person = {'name': name, 'age': age}
print(person)
ˋˋˋ

Or with ˋdict(name=name, age=age)ˋ if you prefer keyword arguments.`,
	),
	answer(
		'python: get_weather defined with its test',
		'weather',
		written`Here is a small wrapper around the OpenWeatherMap API, and a pytest test for it.

ˋˋˋpython
import requests

API_URL = "https://api.openweathermap.org/data/2.5/weather"


def get_weather(city: str, unit: str = "celsius") -> dict:
    units = "metric" if unit == "celsius" else "imperial"
    response = requests.get(API_URL, params={"q": city, "units": units, "appid": API_KEY}, timeout=10)
    response.raise_for_status()
    data = response.json()
    return {"city": city, "temperature": data["main"]["temp"], "unit": unit}
ˋˋˋ

ˋˋˋpython
def test_get_weather(requests_mock):
    requests_mock.get(API_URL, json={"main": {"temp": 21.5}})
    result = get_weather(city="Paris")
    assert result == {"city": "Paris", "temperature": 21.5, "unit": "celsius"}
ˋˋˋ

Run it with ˋpytest -qˋ.`,
	),
	answer(
		'python: json.dumps of a tool-call-like payload',
		'math',
		written`To send the payload, serialise the dict with ˋjson.dumpsˋ:

ˋˋˋpython
import json

payload = {"name": "add", "arguments": {"a": 2, "b": 3}}
body = json.dumps(payload)
requests.post(f"{BASE_URL}/run", data=body, headers={"Content-Type": "application/json"})
ˋˋˋ

The server reads ˋnameˋ to pick the function and ˋargumentsˋ for its parameters.`,
	),
	answer(
		'python: unfenced one-liner with lookup',
		'math',
		written`Use a dictionary lookup with a default: value = table.get(key, "unknown") returns "unknown" when the key is missing, and lookup(key) in your own helper can simply wrap that.`,
	),
	answer(
		'python: add with doctest',
		'math',
		written`ˋˋˋpython
def add(a: float, b: float) -> float:
    """Return the sum of a and b.

    >>> add(2, 3)
    5
    >>> add(-1, 1)
    0
    """
    return a + b


if __name__ == "__main__":
    import doctest
    doctest.testmod()
ˋˋˋ

Running the file runs the examples in the docstring as tests.`,
	),
	answer(
		'python: list of dicts sorted by name',
		'mail',
		written`Sort with a key function:

ˋˋˋpython
users = [
    {"name": "Zoe", "email": "zoe@example.com"},
    {"name": "Adam", "email": "adam@example.com"},
]
users.sort(key=lambda user: user["name"])
for user in users:
    send_email(to=user["email"], subject="Welcome", body=f"Hi {user['name']}!")
ˋˋˋ

ˋsend_emailˋ here is your own function; swap in ˋsmtplibˋ or your provider's SDK.`,
	),
	answer(
		'python: pythonic list of calls in a test, fenced',
		'math',
		written`Parametrize the test so each case is one line:

ˋˋˋpython
import pytest

@pytest.mark.parametrize("a,b,expected", [(2, 3, 5), (0, 0, 0), (-2, 2, 0)])
def test_add(a, b, expected):
    assert add(a=a, b=b) == expected

calls = [add(a=2, b=3), add(a=1, b=1)]
assert calls == [5, 2]
ˋˋˋ`,
	),
	answer(
		'python: FastAPI endpoint named create_ticket',
		'mail',
		written`ˋˋˋpython
from fastapi import FastAPI
from pydantic import BaseModel

app = FastAPI()


class Ticket(BaseModel):
    title: str
    priority: str = "low"


@app.post("/tickets")
def create_ticket(ticket: Ticket):
    saved = db.insert({"title": ticket.title, "priority": ticket.priority})
    return {"id": saved.id, "status": "open"}
ˋˋˋ

POST ˋ{"title": "Printer jam", "priority": "high"}ˋ to ˋ/ticketsˋ and you get the new id back.`,
	),
	answer(
		'python: openai SDK tools definition',
		'weather',
		written`With the OpenAI Python SDK you describe the function in ˋtoolsˋ and read ˋtool_callsˋ back:

ˋˋˋpython
from openai import OpenAI

client = OpenAI()
tools = [{
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Get the weather of a city",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
        },
    },
}]
response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
for call in response.choices[0].message.tool_calls or []:
    args = json.loads(call.function.arguments)
    print(call.function.name, args)
ˋˋˋ

The model decides whether to call the function; your code runs it and sends the result back as a ˋtoolˋ message.`,
	),
];
