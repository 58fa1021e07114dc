import SessionTestSupport
import Testing

/// The loopback link under the link contract suite (`SessionTestSupport`'s ``LinkContract``).
@Suite("Link contract: loopback")
struct LinkContractTests {
  @Test(arguments: LinkContract.cases)
  func contract(_ check: LinkContract) throws {
    try check.run(in: ContractWorld())
  }
}
