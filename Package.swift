// swift-tools-version: 6.0
import PackageDescription

let swiftSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
]

/// HMAC-SHA256 (tokens) and AES-128-GMAC (media tags) come from CryptoKit on Apple platforms and
/// from OpenSSL's libcrypto elsewhere.
let cryptoDependency: Target.Dependency = .target(
  name: "CCrypto",
  condition: .when(platforms: [.linux, .android, .windows, .openbsd, .wasi])
)

let package = Package(
  name: "SessionEngine",
  // Synchronization (Mutex) needs macOS 15 and iOS 18; Observation alone would need 14 and 17.
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [
    .library(name: "SessionCore", targets: ["SessionCore"]),
    .library(name: "SessionTransport", targets: ["SessionTransport"]),
    .library(name: "InProcessTransport", targets: ["InProcessTransport"]),
    .library(name: "VirtualNetwork", targets: ["VirtualNetwork"]),
    .library(name: "SessionService", targets: ["SessionService"]),
    .library(name: "SessionSDK", targets: ["SessionSDK"]),
    .library(name: "SessionTestSupport", targets: ["SessionTestSupport"]),
    .library(name: "LoopbackTransport", targets: ["LoopbackTransport"]),
    .library(name: "LoopbackFaults", targets: ["LoopbackFaults"]),
    .library(name: "SessionSimulation", targets: ["SessionSimulation"]),
    .library(name: "LoopbackSimulation", targets: ["LoopbackSimulation"]),
    .executable(name: "sessionsim", targets: ["sessionsim"]),
    .executable(name: "sessionbench", targets: ["sessionbench"]),
    .executable(name: "quickstart-example", targets: ["QuickStartExample"]),
  ],
  targets: [
    // MARK: C shims
    .systemLibrary(
      name: "CLibUV",
      pkgConfig: "libuv",
      providers: [.apt(["libuv1-dev"])]
    ),
    // Header only: the SDK's prefetch hint for the fan-out path (Decision 0009).
    .systemLibrary(name: "CPrefetch"),
    .systemLibrary(
      name: "CCrypto",
      pkgConfig: "libcrypto",
      providers: [.apt(["libssl-dev"])]
    ),

    // MARK: Core values and reducer
    .target(
      name: "SessionCore",
      swiftSettings: swiftSettings
    ),

    // MARK: The seam between service and SDK
    .target(
      name: "SessionTransport",
      dependencies: [
        "SessionCore",
        // The media datagrams' authentication tags (AES-128-GMAC).
        cryptoDependency,
      ],
      swiftSettings: swiftSettings
    ),

    // The in-process network: links with no sockets and no threads (Decision 0015).
    .target(
      name: "InProcessTransport",
      dependencies: [
        "SessionCore",
        "SessionTransport",
      ],
      swiftSettings: swiftSettings
    ),

    // The deterministic virtual network: a virtual clock, one event queue, faults.
    .target(
      name: "VirtualNetwork",
      dependencies: [
        "SessionCore",
        "SessionTransport",
        "CPrefetch",
      ],
      swiftSettings: swiftSettings
    ),

    // MARK: Authoritative service and SDK mirror
    .target(
      name: "SessionService",
      dependencies: [
        "SessionCore",
        "SessionTransport",
        cryptoDependency,
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "SessionSDK",
      dependencies: [
        "CPrefetch",
        "SessionCore",
        "SessionTransport",
        // Only for the development service an instance reaches without a transport
        // (Decision 0013); the SDK talks to it through the link seam alone.
        "InProcessTransport",
        "SessionService",
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "SessionTestSupport",
      dependencies: [
        "InProcessTransport",
        "SessionCore",
        "SessionTransport",
        "SessionService",
        "SessionSDK",
      ],
      swiftSettings: swiftSettings
    ),

    // MARK: Real I/O
    .target(
      name: "LoopbackTransport",
      dependencies: [
        "CLibUV",
        "SessionCore",
        "SessionTransport",
      ],
      swiftSettings: swiftSettings
    ),

    // Tools, not product: the fault proxies (TCP and UDP) and the raw UDP relay baseline.
    .target(
      name: "LoopbackFaults",
      dependencies: [
        "CLibUV",
        "SessionCore",
        "SessionTransport",
        "LoopbackTransport",
      ],
      swiftSettings: swiftSettings
    ),

    // MARK: Simulation runs
    // Scenarios, simulated peers, faults, checks and shrinking, in two modes.
    .target(
      name: "SessionSimulation",
      dependencies: [
        "SessionCore",
        "SessionTransport",
        "SessionService",
        "SessionSDK",
        "VirtualNetwork",
      ],
      swiftSettings: swiftSettings
    ),

    // Loopback mode's world: real sockets, real time, faults by the proxies. Apart, so that
    // deterministic runs need no libuv.
    .target(
      name: "LoopbackSimulation",
      dependencies: [
        "SessionCore",
        "SessionTransport",
        "SessionService",
        "SessionSimulation",
        "LoopbackTransport",
        "LoopbackFaults",
      ],
      swiftSettings: swiftSettings
    ),

    // MARK: Executables
    .executableTarget(
      name: "sessionsim",
      dependencies: [
        "SessionSimulation",
        "LoopbackSimulation",
        "SessionCore",
        "SessionTransport",
        "SessionService",
        "SessionSDK",
        "LoopbackTransport",
      ],
      resources: [.copy("Resources")],
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "sessionbench",
      dependencies: [
        "InProcessTransport",
        "SessionCore",
        "SessionTransport",
        "SessionService",
        "SessionSDK",
        "SessionSimulation",
        "SessionTestSupport",
        "LoopbackTransport",
        "LoopbackFaults",
        "VirtualNetwork",
        "CLibUV",
      ],
      swiftSettings: swiftSettings
    ),
    // Seed 000's app code, ported by type aliases alone; a library so that tests run it.
    .target(
      name: "QuickStartSeed",
      dependencies: [
        "SessionCore",
        "SessionSDK",
      ],
      path: "Examples/QuickStart/Seed",
      swiftSettings: swiftSettings
    ),
    // Seed 001's share and annotation view controller as published: Zoom names through type
    // aliases, UIKit and PDFKit through headless stand-ins. Its conformance to the SDK's
    // delegate is main-actor-isolated as Swift 6.2 infers (the article's code writes no
    // `@preconcurrency`). A library so that tests run it with several peers.
    .target(
      name: "ShareAnnotationSeed",
      dependencies: [
        "SessionCore",
        "SessionSDK",
      ],
      path: "Examples/ShareAnnotation/Seed",
      swiftSettings: swiftSettings + [.enableUpcomingFeature("InferIsolatedConformances")]
    ),
    // Seed 002's virtual classroom as published, ported as seed 001 is.
    .target(
      name: "ClassroomSeed",
      dependencies: [
        "SessionCore",
        "SessionSDK",
      ],
      path: "Examples/Classroom/Seed",
      swiftSettings: swiftSettings + [.enableUpcomingFeature("InferIsolatedConformances")]
    ),
    .executableTarget(
      name: "QuickStartExample",
      dependencies: [
        "QuickStartSeed",
        "SessionCore",
        "SessionService",
        "SessionSDK",
      ],
      path: "Examples/QuickStart/App",
      swiftSettings: swiftSettings
    ),

    // MARK: Fuzzing
    // The libFuzzer harnesses' bodies (Docs/Reliability.md, "Fuzzing"): package access, not a
    // product; the normal test suite replays the checked-in corpora through them.
    .target(
      name: "SessionFuzz",
      dependencies: [
        "SessionCore",
        "SessionTransport",
        "SessionService",
        "SessionSimulation",
        "SessionTestSupport",
      ],
      swiftSettings: swiftSettings
    ),
    // Header only: libFuzzer's driver entry, called by sessionfuzz's fuzzing build alone.
    .systemLibrary(name: "CFuzzerDriver", path: "Fuzz/CFuzzerDriver"),
    // The harnesses as one program: a libFuzzer fuzzer when scripts/fuzz builds it with
    // -DFUZZING and -sanitize=fuzzer,address, a corpus replayer in the normal build.
    .executableTarget(
      name: "sessionfuzz",
      dependencies: [
        "SessionFuzz",
        "CFuzzerDriver",
      ],
      path: "Fuzz/Runner",
      swiftSettings: swiftSettings
    ),

    // MARK: Tests
    .testTarget(
      name: "SessionCoreTests",
      dependencies: [
        "SessionCore"
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "SessionTransportTests",
      dependencies: [
        "SessionCore",
        "SessionTransport",
        // The seeded property tests draw their values as the fuzzers do (`ProtocolValues`).
        "SessionFuzz",
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "InProcessTransportTests",
      dependencies: [
        "InProcessTransport",
        "SessionCore",
        "SessionTransport",
        "SessionService",
        "SessionTestSupport",
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "SessionSimulationTests",
      dependencies: [
        "SessionSimulation",
        "LoopbackSimulation",
        "VirtualNetwork",
        "SessionCore",
        "SessionSDK",
        "SessionService",
      ],
      // Read through #filePath, as the examples are.
      exclude: ["Fixtures"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "VirtualNetworkTests",
      dependencies: [
        "VirtualNetwork",
        "SessionCore",
        "SessionTransport",
        "SessionService",
        "SessionSDK",
        "SessionTestSupport",
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "SessionServiceTests",
      dependencies: [
        "SessionCore",
        "SessionTransport",
        "SessionService",
        "SessionTestSupport",
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "SessionSDKTests",
      dependencies: [
        "ClassroomSeed",
        "InProcessTransport",
        "QuickStartSeed",
        "SessionCore",
        "SessionTransport",
        "SessionService",
        "SessionSDK",
        "SessionTestSupport",
        "ShareAnnotationSeed",
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "SessionFuzzTests",
      dependencies: [
        "SessionFuzz"
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "LoopbackTransportTests",
      dependencies: [
        "SessionCore",
        "SessionTransport",
        "SessionService",
        "SessionSDK",
        "SessionTestSupport",
        "LoopbackTransport",
        "LoopbackFaults",
      ],
      swiftSettings: swiftSettings
    ),
  ],
  swiftLanguageModes: [.v6]
)
