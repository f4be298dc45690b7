/// The specs of `formats/`, checked and embedded at build time by the `EmbedFormatSpecs` plugin
/// (its generated file defines `BuiltInSpecSources`).
package enum BuiltInSpecs {
    /// File name, id and YAML text of each built-in spec.
    package static var files: [(name: String, id: String, text: String)] { BuiltInSpecSources.files }
}
