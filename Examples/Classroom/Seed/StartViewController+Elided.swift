// Scaffolding, not seed code: the two steps of seed 002's `StartViewController.viewDidLoad()`
// that the article names without code and that the headless app has nothing to do for (the
// look of the screen, and the message and button label for the chosen role). `setupLayout()`
// is in StartViewController.swift, the only file that can reach the published private fields.

extension StartViewController {
  func setupAppearance() {}

  func updateRoleCopy() {}
}
