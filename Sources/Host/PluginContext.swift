import Foundation
import Logging
import HostModel
import HostStorage
import PluginRuntime

/// What the plugin commands (`plugins`, `doctor`) need without a manifest: the paths, the
/// settings, the host's state (where pins are kept) and the plugin catalog.
public struct PluginContext {
    public let paths: HostPaths
    public let config: HostConfig
    public let state: HostState
    public let catalog: PluginCatalog
    /// The request this context serves.
    public let request: HostRequest

    public init(options: HostOptions, logger: Logger) throws(HostError) {
        paths = options.request.paths
        request = options.request
        config = try options.config(of: paths)
        state = try options.state(of: paths)
        catalog = try HostSession.catalog(options: options, paths: paths, config: config, state: state, logger: logger)
    }

    /// `plugins rescan`: forgets every cached scan and scans every plugin again.
    public func rescan() throws(HostError) -> PluginCatalog.Loaded {
        do {
            try catalog.clearCache()
        } catch {
            throw HostError(.io, key: "error.registryClear", ["directory": paths.cacheDirectory.path, "why": "\(error)",
                                                         "file": paths.cacheDirectory.appendingPathComponent("registry.sqlite").path], cause: error)
        }
        return catalog.load()
    }

    /// `plugins trust PATH`: pins the plugin's current bytes. It must pass the checks that run
    /// no plugin code first; the answer is its real path and hash.
    public func trust(_ path: String) throws(HostError) -> (realPath: String, sha256: String) {
        let candidate: PluginCandidate
        switch PluginVetting.vet(file: path) {
        case .failure(let refusal): throw HostError(.pluginUntrustworthy, refusal.sentence)
        case .success(let vetted): candidate = vetted
        }
        let sha256: String
        do {
            sha256 = try SealedImage.sha256(ofFile: candidate.realPath)
        } catch {
            throw HostError(.io, key: "error.pluginRead", ["path": path, "why": error.localizedDescription], cause: error)
        }
        try state.pin(candidate.realPath, sha256: sha256, at: request.wallClock)
        return (candidate.realPath, sha256)
    }

    /// `plugins untrust PATH`: removes the pin; false when there was none.
    public func untrust(_ path: String) throws(HostError) -> Bool {
        try state.unpin(RealPath.of(path))
    }
}
