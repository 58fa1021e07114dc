import SessionFuzz

/// The seeded property tests' values: every case of every message, event and command, drawn
/// as the fuzzers draw them (`ProtocolValues`, in `SessionFuzz`), from a seeded generator.
/// `Arbitrary(seed:)` gives the same values for the same seed on every machine.
typealias Arbitrary = ProtocolValues<SeededSource>
