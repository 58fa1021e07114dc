// The quick start (seed 000) as a scripted scene: the seed's app on the shared instance, as
// Alice, and two more users with instances of their own, all in one process on the SDK's
// development service (no transport configured, as the seed configures none).
//
//   swift run quickstart-example
//
// After each step it prints what each user's screen would show.

import QuickStartSeed

let scene = QuickStartScene()
await scene.run()
