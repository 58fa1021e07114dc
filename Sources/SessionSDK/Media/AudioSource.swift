import SessionCore
import SessionTransport

/// A synthetic microphone: a packet every 20 ms while audio is connected and unmuted, with a
/// talking model that sets each packet's audio level.
///
/// The model is a two-state Markov chain stepped once a packet: a talk spurt ends with
/// probability 20 ms / mean spurt (1.5 s by default), a silence with 20 ms / mean silence
/// (3 s by default), so spurts and silences have those means and the speaker talks
/// spurt / (spurt + silence) of the time (a third by default). ``setTalking(_:at:)`` drives
/// the state explicitly instead. A talking packet's level is 20–40 (loud; 0 is the loudest, as
/// RFC 6464), a silent one's 100–127. Payloads are 80 bytes (32 kbps). Every packet is its
/// own frame and decodes alone (a key frame). The model steps only while packets are sent.
///
/// > Important: A value, owned by whoever drives it; `Sendable`.
package struct AudioSource: Sendable {
  /// The time between two packets, in microseconds (20 ms).
  package static let packetInterval: Int64 = 20_000
  /// The payload's bitrate, in bits per second.
  package static let bitrate = 32_000
  /// One packet's payload: 20 ms at 32 kbps.
  package static let payloadBytes = UInt16(bitrate / 8 / 50)
  /// The default mean talk spurt, in microseconds.
  package static let defaultMeanSpurt: Int64 = 1_500_000
  /// The default mean silence, in microseconds.
  package static let defaultMeanSilence: Int64 = 3_000_000
  /// Audio levels while talking.
  package static let talkingLevels: ClosedRange<UInt8> = 20...40
  /// Audio levels while silent.
  package static let silentLevels: ClosedRange<UInt8> = 100...127

  /// The sender.
  package let user: UserID
  /// Whether audio is connected.
  package private(set) var isConnected: Bool
  /// Whether the microphone is muted.
  package private(set) var isMuted: Bool
  /// The explicit talking state, or `nil` while the model drives it.
  package var talking: Bool? { talker.talking }
  /// Whether the last packet sent (or the state before the first) was talking.
  package var isTalking: Bool { talker.isTalking }

  private var schedule: TickSchedule
  private var talker: Talker

  /// Creates a microphone.
  ///
  /// - Parameters:
  ///   - user: The sender.
  ///   - connected: Whether audio is connected at `start`; `true` by default.
  ///   - muted: Whether the microphone is muted at `start`; `false` by default.
  ///   - meanSpurt: The model's mean talk spurt, microseconds (20 ms to 1 h).
  ///   - meanSilence: The model's mean silence, microseconds (20 ms to 1 h).
  ///   - seed: The model's seed; the first state is drawn from the model's long-run shares.
  ///   - start: The time of the first packet, in microseconds.
  ///   - firstSequence: The first packet's sequence number; 0 by default.
  /// - Throws: ``MediaSourceError/invalidTalkDuration(_:)`` for a mean outside the limits.
  package init(
    user: UserID, connected: Bool = true, muted: Bool = false,
    meanSpurt: Int64 = defaultMeanSpurt, meanSilence: Int64 = defaultMeanSilence,
    seed: UInt64, start: Int64, firstSequence: UInt32 = 0
  ) throws(MediaSourceError) {
    for mean in [meanSpurt, meanSilence] where !MediaSourceLimits.talkDurations.contains(mean) {
      throw .invalidTalkDuration(mean)
    }
    self.user = user
    self.isConnected = connected
    self.isMuted = muted
    schedule = TickSchedule(rate: Int(1_000_000 / Self.packetInterval), start: start)
    talker = Talker(
      stream: StreamID(user: user, kind: .audio), meanSpurt: meanSpurt, meanSilence: meanSilence,
      seed: seed, firstSequence: firstSequence)
  }

  /// The microphone's stream.
  package var stream: StreamID { StreamID(user: user, kind: .audio) }

  /// Whether packets are being sent: connected and unmuted.
  package var isSending: Bool { isConnected && !isMuted }

  /// The packets due at or before `now` and not taken yet (none while disconnected or muted).
  ///
  /// - Parameter now: The current time, in microseconds.
  /// - Returns: The packets in send order.
  package mutating func packets(until now: Int64) -> [MediaPacket] {
    schedule.packets(until: now, isSending: isSending, state: &talker, emit: Talker.emit)
  }

  /// Connects or disconnects audio at `now`. Packets due before `now` are still handed out;
  /// one due at `now` follows the new state.
  ///
  /// - Parameters:
  ///   - connected: Whether audio is connected.
  ///   - now: When, in microseconds.
  package mutating func setConnected(_ connected: Bool, at now: Int64) {
    let wasSending = isSending
    flush(until: now)
    isConnected = connected
    resumeIfStarted(wasSending: wasSending, at: now)
  }

  /// Mutes or unmutes the microphone at `now`. Packets due before `now` are still handed out;
  /// one due at `now` follows the new state.
  ///
  /// - Parameters:
  ///   - muted: Whether the microphone is muted.
  ///   - now: When, in microseconds.
  package mutating func setMuted(_ muted: Bool, at now: Int64) {
    let wasSending = isSending
    flush(until: now)
    isMuted = muted
    resumeIfStarted(wasSending: wasSending, at: now)
  }

  /// Drives the talking state from `now` on (a packet due at `now` included): `true` or
  /// `false` explicitly, `nil` to hand it back to the model (which continues from the current
  /// state).
  ///
  /// - Parameters:
  ///   - talking: The state, or `nil` for the model.
  ///   - now: When, in microseconds.
  package mutating func setTalking(_ talking: Bool?, at now: Int64) {
    flush(until: now)
    talker.talking = talking
    if let talking { talker.isTalking = talking }
  }

  private mutating func resumeIfStarted(wasSending: Bool, at now: Int64) {
    if !wasSending, isSending { schedule.restart(at: now) }
  }

  /// Moves the packets due before `now` into the schedule's pending ones, before a change of
  /// state at `now`.
  private mutating func flush(until now: Int64) {
    schedule.flush(until: now, isSending: isSending, state: &talker, emit: Talker.emit)
  }
}

extension AudioSource {
  /// The talking model and the packets' numbering: what makes each packet, apart from the
  /// schedule that says when.
  ///
  /// > Important: A value, owned by its ``AudioSource``; `Sendable`.
  private struct Talker: Sendable {
    let stream: StreamID
    /// The chance, per packet, that a talk spurt ends, and that a silence does.
    let endSpurt: Double
    let endSilence: Double
    var random: SimulationRandom
    var sequence: UInt32
    var frameID: UInt32 = 0
    /// The explicit talking state, or `nil` while the model drives it.
    var talking: Bool?
    /// Whether the last packet made (or the state before the first) was talking.
    var isTalking: Bool

    init(
      stream: StreamID, meanSpurt: Int64, meanSilence: Int64, seed: UInt64, firstSequence: UInt32
    ) {
      self.stream = stream
      endSpurt = Double(AudioSource.packetInterval) / Double(meanSpurt)
      endSilence = Double(AudioSource.packetInterval) / Double(meanSilence)
      random = MediaSeed.generator(seed: seed, stream: stream)
      sequence = firstSequence
      let talkingShare = Double(meanSpurt) / Double(meanSpurt + meanSilence)
      isTalking = MediaSeed.unit(&random) < talkingShare
    }

    /// Appends the packet of a tick at `time`.
    static func emit(
      _ talker: inout Talker, tick _: Int64, time: Int64, into packets: inout [MediaPacket]
    ) {
      packets.append(talker.packet(at: time))
    }

    /// Steps the talking state and makes the packet sent at `time`.
    private mutating func packet(at time: Int64) -> MediaPacket {
      let draw = MediaSeed.unit(&random)
      if let talking {
        isTalking = talking
      } else if draw < (isTalking ? endSpurt : endSilence) {
        isTalking.toggle()
      }
      let levels = isTalking ? AudioSource.talkingLevels : AudioSource.silentLevels
      let level = levels.lowerBound + UInt8(random.next() % UInt64(levels.count))
      let packet = MediaPacket(
        stream: stream, sequence: sequence, frameID: frameID, isKeyFrame: true, sendTime: time,
        payloadBytes: AudioSource.payloadBytes, audioLevel: level, width: 0, height: 0,
        framePackets: 1)
      sequence &+= 1
      frameID &+= 1
      return packet
    }
  }
}
