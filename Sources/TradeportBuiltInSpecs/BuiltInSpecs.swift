/// The specs of `formats/`, checked and embedded at build time by the `EmbedFormatSpecs` plugin
/// (its generated file defines `BuiltInSpecSources`).
package enum BuiltInSpecs {
    /// File name, id and YAML text of each built-in spec, and the header texts its files hold in
    /// their first bytes (each entry one of its alternatives) where detection can tell by them.
    package static var files: [(name: String, id: String, text: String, detect: [[String]]?)] { BuiltInSpecSources.files }
}
