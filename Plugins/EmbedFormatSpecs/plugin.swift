import Foundation
import PackagePlugin

/// Checks every spec in the package's `formats/` folder at build time and embeds them in the
/// target: a broken spec fails `swift build` with its file, line and reason.
@main
struct EmbedFormatSpecs: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "formats")
        let specs = ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "yaml" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "BuiltInSpecSources.swift")
        return [
            .buildCommand(
                displayName: "Checking and embedding \(specs.count) format specs from formats/",
                executable: try context.tool(named: "TradeportSpecTool").url,
                arguments: ["embed", "--output", output.path] + specs.map(\.path),
                inputFiles: specs + [folder],
                outputFiles: [output]
            )
        ]
    }
}
