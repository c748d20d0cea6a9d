/** Ordinary answers in markup and small languages: HTML, CSS, Perl, Dart, Haskell, Elixir, YAML, GraphQL. */
import { answer, written, type OrdinaryAnswer } from './ordinary-answers.tools';

export const MARKUP: OrdinaryAnswer[] = [
	answer(
		'html: a form posting to create_ticket',
		'mail',
		written`ˋˋˋhtml
<form action="/create_ticket" method="post">
  <label for="title">Title</label>
  <input id="title" name="title" required>
  <select name="priority">
    <option value="low">Low</option>
    <option value="high">High</option>
  </select>
  <button type="submit">Create ticket</button>
</form>
ˋˋˋ

The ˋnameˋ attributes become the form fields your handler reads.`,
	),
	answer(
		'html: a script tag with a JSON-LD block',
		'weather',
		written`ˋˋˋhtml
<script type="application/ld+json">
{
  "@context": "https://schema.org",
  "@type": "Organization",
  "name": "Acme Weather",
  "url": "https://weather.example.com"
}
</script>
ˋˋˋ`,
	),
	answer(
		'css: a tool-named class',
		'weather',
		written`ˋˋˋcss
.get_weather {
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr));
  gap: 1rem;
}

.search_docs input[name="query"] {
  width: 100%;
}
ˋˋˋ`,
	),
	answer(
		'css: a media query, unfenced',
		'math',
		written`Wrap it in a media query: @media (max-width: 600px) { .sidebar { display: none; } } hides the sidebar on phones.`,
	),
	answer(
		'perl: a hash and encode_json',
		'math',
		written`ˋˋˋperl
use JSON::PP;
my %call = (name => 'lookup', arguments => { input => 'otter' });
print encode_json(\%call), "\n";
ˋˋˋ`,
	),
	answer(
		'dart: a map and jsonEncode',
		'weather',
		written`ˋˋˋdart
import 'dart:convert';

void main() {
  final call = {'name': 'search_docs', 'arguments': {'query': 'webhooks', 'limit': 3}};
  print(jsonEncode(call));
}
ˋˋˋ`,
	),
	answer(
		'haskell: aeson object',
		'math',
		written`ˋˋˋhaskell
import Data.Aeson

call :: Value
call = object ["name" .= ("add" :: String), "arguments" .= object ["a" .= (2 :: Int), "b" .= (3 :: Int)]]

add :: Int -> Int -> Int
add a b = a + b
ˋˋˋ`,
	),
	answer(
		'elixir: a map and Jason',
		'mail',
		written`ˋˋˋelixir
%{name: "send_email", arguments: %{to: "a@example.com", subject: "Hi", body: "Hello"}}
|> Jason.encode!()
|> IO.puts()
ˋˋˋ`,
	),
	answer(
		'yaml in a GitHub Actions step with a name',
		'math',
		written`ˋˋˋyaml
- name: Run tests
  run: npm test
- name: Lookup
  uses: actions/cache@v4
  with:
    path: ~/.npm
    key: npm-$\{{ hashFiles('package-lock.json') }}
ˋˋˋ`,
	),
	answer(
		'graphql: a query',
		'weather',
		written`ˋˋˋgraphql
query Weather($city: String!) {
  weather(city: $city) {
    name
    temperature
  }
}
ˋˋˋ

Variables: ˋ{"city": "Lima"}ˋ.`,
	),
	answer(
		'regex explained',
		'math',
		written`The pattern ˋ^(?<name>\w+)\((?<args>.*)\)$ˋ captures a function name and its arguments: for ˋadd(2, 3)ˋ, ˋnameˋ is ˋaddˋ and ˋargsˋ is ˋ2, 3ˋ.`,
	),
];
