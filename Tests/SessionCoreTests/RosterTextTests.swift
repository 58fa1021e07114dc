import Testing

@testable import SessionCore

/// The one roster printer: a table for the demo's log, a line for a run's narration.
@Suite("Roster text: the table and the line")
struct RosterTextTests {
  @Test func theTableListsEveryUserInRoleOrderWithTheirStatus() {
    var state = SessionBuilder.classroom(myself: 3, sharing: 5).build()
    state.participants[3]?.isVideoOn = true
    state.participants[3]?.audio = AudioStatus(type: .voip, isMuted: false, isTalking: true)
    state.participants[4]?.audio = AudioStatus(type: .voip, isMuted: true, isTalking: false)
    let lines = state.rosterTable()
    #expect(lines.count == 6)
    #expect(lines[0] == "roster (5):")
    #expect(lines[1].hasPrefix("  host     Teacher"))
    #expect(lines[2].hasPrefix("  manager  Assistant"))
    #expect(
      lines[3].contains("Ada (me)") && lines[3].contains("video") && lines[3].hasSuffix("mic on *"))
    #expect(lines[4].hasSuffix("muted"))
    #expect(lines[5].hasSuffix("sharing"))
    #expect(lines.allSatisfy { !$0.hasSuffix(" ") })
  }

  @Test func outsideASessionBothSaySo() {
    let state = SessionState()
    #expect(state.rosterTable() == ["(not in a session)"])
    #expect(state.rosterLine() == "(not in the session)")
  }

  @Test func theLineMarksRolesAndSharesAndFoldsALongRoster() {
    let state = SessionBuilder.classroom(myself: 3, sharing: 5).build()
    #expect(state.rosterLine() == "★ Teacher, ☆ Assistant, Ada, Ben, Cy ⧉")
    #expect(state.rosterLine(limit: 5) == "★ Teacher, ☆ Assistant, Ada, Ben, Cy ⧉")
    #expect(state.rosterLine(limit: 4) == "★ Teacher, ☆ Assistant … and 3 more")
  }
}
