/** Ordinary answers in Kotlin, Swift and Scala (and a Go answer pasted without a fence). */
import { answer, written, type OrdinaryAnswer } from './ordinary-answers.tools';

export const KOTLIN_SWIFT_SCALA: OrdinaryAnswer[] = [
	answer(
		'kotlin: data class and a map',
		'weather',
		written`ˋˋˋkotlin
data class WeatherCall(val name: String, val arguments: Map<String, Any>)

fun main() {
    val call = WeatherCall(name = "get_weather", arguments = mapOf("city" to "Vienna"))
    println(Json.encodeToString(call))
}
ˋˋˋ

With kotlinx.serialization, annotate the class with ˋ@Serializableˋ.`,
	),
	answer(
		'kotlin: coroutine call in prose',
		'weather',
		written`In Kotlin you'd call it from a coroutine: ˋval weather = getWeather(city = "Paris")ˋ inside ˋrunBlocking { }ˋ or a ˋviewModelScope.launch { }ˋ block, since it is a suspend function.`,
	),
	answer(
		'swift: Codable struct and JSONEncoder',
		'mail',
		written`ˋˋˋswift
struct Ticket: Codable {
    let name: String
    let title: String
    let priority: String
}

let ticket = Ticket(name: "create_ticket", title: "Printer offline", priority: "low")
let data = try JSONEncoder().encode(ticket)
print(String(data: data, encoding: .utf8)!)
ˋˋˋ`,
	),
	answer(
		'swift: async function and XCTest',
		'weather',
		written`ˋˋˋswift
func getWeather(city: String) async throws -> Double {
    let url = URL(string: "https://api.example.com/weather?city=\(city)")!
    let (data, _) = try await URLSession.shared.data(from: url)
    return try JSONDecoder().decode(Weather.self, from: data).temperature
}

final class WeatherTests: XCTestCase {
    func testParis() async throws {
        let temperature = try await getWeather(city: "Paris")
        XCTAssertGreaterThan(temperature, -50)
    }
}
ˋˋˋ`,
	),
	answer(
		'scala: case class and a for-comprehension',
		'math',
		written`ˋˋˋscala
case class Call(name: String, arguments: Map[String, Int])

val calls = List(Call("add", Map("a" -> 2, "b" -> 3)), Call("add", Map("a" -> 1, "b" -> 1)))
val sums = for (call <- calls) yield call.arguments.values.sum
println(sums) // List(5, 2)
ˋˋˋ`,
	),
	answer(
		'scala: circe encoding',
		'weather',
		written`With circe you derive the encoder:

ˋˋˋscala
import io.circe.generic.auto._, io.circe.syntax._

case class Query(query: String, limit: Int)
println(Query("webhooks", 3).asJson.noSpaces) // {"query":"webhooks","limit":3}
ˋˋˋ`,
	),
	answer(
		'go: unfenced code pasted without a fence',
		'math',
		written`Try this:

package main

import "fmt"

func add(a, b int) int { return a + b }

func main() {
	fmt.Println(add(2, 3))
}

go run main.go prints 5.`,
	),
];
