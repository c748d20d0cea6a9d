/** Ordinary answers in compiled languages: Java, Go, Rust, C, C++, C#. */
import { answer, written, type OrdinaryAnswer } from './ordinary-answers.tools';

export const COMPILED: OrdinaryAnswer[] = [
	answer(
		'java: HttpClient POST with a JSON body',
		'weather',
		written`ˋˋˋjava
HttpClient client = HttpClient.newHttpClient();
String json = "{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Berlin\"}}";
HttpRequest request = HttpRequest.newBuilder()
    .uri(URI.create("https://api.example.com/run"))
    .header("Content-Type", "application/json")
    .POST(HttpRequest.BodyPublishers.ofString(json))
    .build();
HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
System.out.println(response.body());
ˋˋˋ

Java 11 and later ship ˋjava.net.http.HttpClientˋ, no dependency needed.`,
	),
	answer(
		'java: a service class with add and a JUnit test',
		'math',
		written`ˋˋˋjava
public class Calculator {
    public int add(int a, int b) {
        return a + b;
    }
}
ˋˋˋ

ˋˋˋjava
class CalculatorTest {
    @Test
    void addsTwoNumbers() {
        assertEquals(5, new Calculator().add(2, 3));
    }
}
ˋˋˋ

JUnit 5 finds the test by the ˋ@Testˋ annotation.`,
	),
	answer(
		'java: a record and a map',
		'mail',
		written`Since Java 16 a record does it in one line:

ˋˋˋjava
record Ticket(String title, String priority) {}

Map<String, Object> fields = Map.of("name", "create_ticket", "title", "VPN down");
Ticket ticket = new Ticket((String) fields.get("title"), "high");
ˋˋˋ`,
	),
	answer(
		'go: net/http handler decoding JSON',
		'weather',
		written`ˋˋˋgo
type WeatherRequest struct {
	City string ˋjson:"city"ˋ
	Unit string ˋjson:"unit,omitempty"ˋ
}

func getWeather(w http.ResponseWriter, r *http.Request) {
	var req WeatherRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	json.NewEncoder(w).Encode(map[string]any{"city": req.City, "temperature": 18})
}
ˋˋˋ

Register it with ˋhttp.HandleFunc("/weather", getWeather)ˋ.`,
	),
	answer(
		'go: table-driven test of Add',
		'math',
		written`ˋˋˋgo
func TestAdd(t *testing.T) {
	cases := []struct {
		name string
		a, b int
		want int
	}{
		{name: "small", a: 2, b: 3, want: 5},
		{name: "zero", a: 0, b: 0, want: 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := add(tc.a, tc.b); got != tc.want {
				t.Errorf("add(%d, %d) = %d, want %d", tc.a, tc.b, got, tc.want)
			}
		})
	}
}
ˋˋˋ

Each case has a ˋnameˋ so ˋgo test -runˋ can pick one.`,
	),
	answer(
		'go: unfenced struct literal',
		'mail',
		written`You can write it inline: email := Email{To: "ops@example.com", Subject: "Disk full", Body: msg} and then call sendEmail(ctx, email); the struct tags decide the JSON keys.`,
	),
	answer(
		'rust: serde_json json! macro',
		'weather',
		written`ˋˋˋrust
use serde_json::json;

fn main() {
    let call = json!({
        "name": "get_weather",
        "arguments": { "city": "Madrid", "unit": "celsius" }
    });
    println!("{}", serde_json::to_string_pretty(&call).unwrap());
}
ˋˋˋ

ˋjson!ˋ builds a ˋserde_json::Valueˋ at run time with the same syntax as JSON.`,
	),
	answer(
		'rust: fn add with tests module',
		'math',
		written`ˋˋˋrust
pub fn add(a: i64, b: i64) -> i64 {
    a + b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(2, 3), 5);
    }
}
ˋˋˋ

ˋcargo testˋ runs it.`,
	),
	answer(
		'rust: a derive struct and reqwest',
		'mail',
		written`ˋˋˋrust
#[derive(Serialize)]
struct Email<'a> {
    to: &'a str,
    subject: &'a str,
    body: &'a str,
}

async fn send_email(client: &reqwest::Client, email: &Email<'_>) -> reqwest::Result<()> {
    client.post("https://mail.example.com/send").json(email).send().await?.error_for_status()?;
    Ok(())
}
ˋˋˋ`,
	),
	answer(
		'c: printf with a struct',
		'math',
		written`ˋˋˋc
#include <stdio.h>

struct entry { const char *name; int value; };

int add(int a, int b) { return a + b; }

int main(void) {
    struct entry entries[] = { {"a", 2}, {"b", 3} };
    printf("{\"name\": \"%s\", \"sum\": %d}\n", "add", add(entries[0].value, entries[1].value));
    return 0;
}
ˋˋˋ

It prints a JSON line; escape the quotes with backslashes inside the format string.`,
	),
	answer(
		'c: a lookup table with bsearch',
		'math',
		written`For a sorted array, ˋbsearchˋ from ˋ<stdlib.h>ˋ is the lookup:

ˋˋˋc
static int compare(const void *key, const void *item) {
    return strcmp((const char *)key, ((const struct word *)item)->name);
}

const struct word *lookup(const char *input) {
    return bsearch(input, words, sizeof words / sizeof words[0], sizeof words[0], compare);
}
ˋˋˋ`,
	),
	answer(
		'c++: nlohmann json',
		'weather',
		written`ˋˋˋcpp
#include <nlohmann/json.hpp>
using json = nlohmann::json;

json request = {
    {"name", "search_docs"},
    {"arguments", {{"query", "rate limits"}, {"limit", 5}}}
};
std::string body = request.dump();
ˋˋˋ

ˋdump(2)ˋ pretty-prints with two spaces.`,
	),
	answer(
		'c++: a class with a map and a gtest',
		'math',
		written`ˋˋˋc++
class Dictionary {
 public:
  std::optional<std::string> lookup(const std::string& input) const {
    auto it = entries_.find(input);
    if (it == entries_.end()) return std::nullopt;
    return it->second;
  }
 private:
  std::map<std::string, std::string> entries_{{"otter", "a river animal"}};
};

TEST(DictionaryTest, FindsOtter) {
  EXPECT_EQ(Dictionary{}.lookup("otter"), "a river animal");
}
ˋˋˋ`,
	),
	answer(
		'c#: HttpClient with an anonymous object',
		'mail',
		written`ˋˋˋcsharp
var payload = new { name = "create_ticket", arguments = new { title = "Laptop broken", priority = "high" } };
var response = await http.PostAsJsonAsync("https://helpdesk.example.com/api/run", payload);
response.EnsureSuccessStatusCode();
ˋˋˋ

ˋPostAsJsonAsyncˋ serialises with System.Text.Json, lower-casing nothing: the property names stay as written.`,
	),
	answer(
		'c#: xunit test of SendEmail',
		'mail',
		written`ˋˋˋcs
public class EmailServiceTests
{
    [Fact]
    public async Task SendEmail_sends_one_message()
    {
        var smtp = new FakeSmtp();
        var service = new EmailService(smtp);

        await service.send_email(to: "a@b.c", subject: "Hi", body: "Hello");

        Assert.Single(smtp.Sent);
        Assert.Equal("Hi", smtp.Sent[0].Subject);
    }
}
ˋˋˋ`,
	),
];
