import Testing
import TradeportBalances
import TradeportCore

@Suite("JSON with exact numbers")
struct JSONValueTests {
    @Test func numbersKeepTheirText() throws {
        let v = try JSONValue.parse(#"{"a": 0.00000051, "b": -12, "c": 1.5E-7, "d": 123456789012345678901234567890.12345678}"#)
        #expect(v["a"] == .number("0.00000051"))
        #expect(v["c"] == .number("1.5E-7"))
        #expect(v["d"] == .number("123456789012345678901234567890.12345678"))
    }

    @Test func jsonNumbersBecomeExactDecimals() {
        #expect(ExactDecimal(jsonNumber: "0.0003597")?.description == "0.0003597")
        #expect(ExactDecimal(jsonNumber: "1.5E-7")?.description == "0.00000015")
        #expect(ExactDecimal(jsonNumber: "25e2")?.description == "2500")
        #expect(ExactDecimal(jsonNumber: "-0.10")?.description == "-0.1")
        #expect(ExactDecimal(jsonNumber: "1,5") == nil)
        #expect(ExactDecimal(jsonNumber: "1e400") == nil)
        #expect(ExactDecimal(jsonNumber: "1e+2")?.description == "100")
        #expect(ExactDecimal(jsonNumber: "1e++2") == nil)
    }

    @Test func stringsAndEscapes() throws {
        let v = try JSONValue.parse(#"["a\"b", "\u00e9\ud83d\ude00", "O'Brien; DROP TABLE trades;--"]"#)
        #expect(v == .array([.string("a\"b"), .string("é😀"), .string("O'Brien; DROP TABLE trades;--")]))
    }

    @Test("the member names of objects of one shape are shared, never confused: escapes, other names, other places")
    func memberNamesOfManyObjects() throws {
        let text = #"""
            [{"tradedQuantityCurrency": 1, "a\\b": 2, "x": 3},
             {"tradedQuantityCurrency": 4, "a\b": 5, "x": 6},
             {"tradedQuantityCurrencY": 7, "a\\b": 8},
             {"x": 9, "tradedQuantityCurrency": 10, "\u0061": 11},
             {"tradedQuantityCurrency": 12, "a": 13, "x\u0000": 14}]
            """#
        var holdsNul = false
        let v = try JSONValue.parse(Array(text.utf8), holdsNul: &holdsNul)
        guard case .array(let items) = v else {
            Issue.record("not an array")
            return
        }
        let names = items.map { item -> [String] in
            guard case .object(let members) = item else { return [] }
            return members.map(\.key)
        }
        #expect(
            names == [
                ["tradedQuantityCurrency", "a\\b", "x"],
                ["tradedQuantityCurrency", "a\u{8}", "x"],
                ["tradedQuantityCurrencY", "a\\b"],
                ["x", "tradedQuantityCurrency", "a"],
                ["tradedQuantityCurrency", "a", "x\u{0}"]
            ])
        #expect(items[3]["a"] == .number("11") && items[1]["a\u{8}"] == .number("5"))
        #expect(holdsNul)
        var none = true
        _ = try JSONValue.parse(Array(#"[{"a": "\u0001"}, {"a": "b"}]"#.utf8), holdsNul: &none)
        #expect(!none)
    }

    @Test func stringsMustBeUTF8WithOrWithoutEscapes() throws {
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse([0x22, 0xFF, 0x22] as [UInt8]) }
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse([0x22, 0x5C, 0x6E, 0xC3, 0x22] as [UInt8]) }
        #expect(try JSONValue.parse(#"["plain é", "", "a\\b", "tab\tend"]"#) == .array([.string("plain é"), .string(""), .string("a\\b"), .string("tab\tend")]))
    }

    @Test(arguments: [
        "", "{", #"{"a" 1}"#, "[1,]", "01", "1.", "-", #""abc"#, "tru", "[1] x", #"{"a":1,}"#, "\"\u{01}\"",
        String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
    ])
    func malformedTextIsAnErrorWithAPlace(_ text: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(text) }
    }

    @Test func writerEscapesAndNests() throws {
        var w = JSONWriter()
        w.beginObject()
        w.key("name")
        w.string("a \"quoted\"\nname\\")
        w.key("list")
        w.beginArray()
        w.number(ExactDecimal(jsonNumber: "0.1")!)
        w.null()
        w.bool(true)
        w.endArray()
        w.key("empty")
        w.beginObject()
        w.endObject()
        w.endObject()
        let text = String(decoding: w.bytes, as: UTF8.self)
        #expect(text == #"{"name":"a \"quoted\"\nname\\","list":[0.1,null,true],"empty":{}}"#)
        #expect(try JSONValue.parse(w.bytes)["name"] == .string("a \"quoted\"\nname\\"))
    }

    @Test func writerWritesAsTheCoreAndItsCopiesAreIndependent() {
        var w = JSONWriter(capacity: 1)
        w.beginArray()
        w.string("tab\tcr\r\u{1F}\u{7F} é 😀 \"\\/")
        w.number(Int64.min)
        w.number(Int64.max)
        w.number(0 as Int64)
        w.number(ExactDecimal(jsonNumber: "-12345678901234567890.123456789012345678")!)
        w.number(ExactDecimal(jsonNumber: "0.00000001")!)
        var copy = w
        copy.string("only in the copy")
        copy.endArray()
        w.endArray()
        let written =
            "[\"tab\\tcr\\r\\u001f\u{7F} é 😀 \\\"\\\\/\",-9223372036854775808,9223372036854775807,0,"
            + "-12345678901234567890.123456789012345678,0.00000001"
        #expect(String(decoding: w.bytes, as: UTF8.self) == written + "]")
        #expect(String(decoding: copy.bytes, as: UTF8.self) == written + ",\"only in the copy\"]")
    }
}

@Suite("Skimming a member of each element")
struct JSONSkimTests {
    @Test func findsTheMemberAndSkipsTheRest() throws {
        let text =
            #"[{"id": 1, "nested": {"tradeValueId": "inner"}, "tradeValueId": "a\"b", "x": [1, {"y": null}]}, {"tradeValueId": 42}, {}, {"tradeValueId": null}, {"trade\u0056alueId": "escaped"}]"#
        #expect(try JSONValue.member("tradeValueId", ofEachElementOf: Array(text.utf8)) == ["a\"b", "42", nil, nil, "escaped"])
        #expect(try JSONValue.member("tradeValueId", ofEachElementOf: Array("[]".utf8)) == [])
    }

    @Test(arguments: ["", "{}", "[1]", #"[{"a": 1,}]"#, #"[{"a": "x}]"#, "[{}] x", #"[{"a": 01}]"#])
    func rejectsWhatIsNotAnArrayOfObjects(_ text: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONValue.member("a", ofEachElementOf: Array(text.utf8)) }
    }

    @Test func countsTheElementsOfNamedArraysWithoutReadingThem() throws {
        let text = #"{"created": [{"a": [1, {"b": "x\"y"}]}, 2, "s", null, true, []], "other": {"created": [1]}, "existing": [], "createdToo": [1]}"#
        #expect(try JSONValue.elementCounts(ofMembers: ["created", "existing", "missing"], of: Array(text.utf8)) == [6, 0, nil])
        // The last of a repeated member; a name with escapes; a member that is not an array.
        #expect(try JSONValue.elementCounts(ofMembers: ["created"], of: Array(#"{"created": [1], "cre\u0061ted": [1, 2]}"#.utf8)) == [2])
        #expect(try JSONValue.elementCounts(ofMembers: ["created", "existing"], of: Array(#"{"created": 5, "existing": null}"#.utf8)) == [nil, nil])
    }

    @Test(arguments: [
        "", "[]", #"{"created": [1,]}"#, #"{"created": [{"a" 1}]}"#, #"{"x": [01]}"#, "{} x", #"{"created": [tru]}"#,
        #"{"x": {"y": }}"#, "{\"created\": " + String(repeating: "[", count: 300) + String(repeating: "]", count: 300) + "}"
    ])
    func countingRejectsMalformedText(_ text: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONValue.elementCounts(ofMembers: ["created"], of: Array(text.utf8)) }
    }
}
