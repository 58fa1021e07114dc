/// A reference to an ``SDKEngine`` that ends when the engine does, for the objects the engine
/// hands out (helpers, sessions, password completions) and the app may keep longer.
///
/// It does what a `weak` reference would, without one: the first weak reference to an object
/// moves its reference counts into a side table for good, and every retain and release of the
/// engine then takes the slow path. The engine holds this box and clears it in its `deinit`, so
/// a reference read here is never dangling (Decision 0009).
///
/// > Important: Not `Sendable`. Confined to its engine's isolation domain.
final class EngineReference {
  /// The engine, from its `init` until its `deinit`.
  unowned(unsafe) var engine: SDKEngine?
}
