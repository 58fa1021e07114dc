import SessionCore
import SessionTransport

extension MediaSession {
  /// Runs the work due by `now`: the sources follow `local`, a bind or ping when due, the
  /// packets due, talking changes, the evaluation when a second has passed, and signalling.
  ///
  /// - Parameters:
  ///   - now: The link's time, µs.
  ///   - local: What the replica says the local user sends.
  ///   - canSignal: Whether requests and commands can go out now (in the session, not while
  ///     resuming); what cannot waits.
  ///   - previews: Which kinds the local user watches itself (self view): their frames of the
  ///     highest layer come back as ``MediaOutput/previews``.
  ///   - isPublishing: Whether a remote user's replica says they send a kind, for the network
  ///     quality of a stream that went silent.
  ///   - out: Where the work goes.
  mutating func tick(
    now: Int64, local: LocalMedia, canSignal: Bool, previews: LocalMedia,
    isPublishing: (UserID, MediaKind) -> Bool, into out: inout MediaOutput
  ) {
    advance(to: now)
    let now = self.now ?? now
    follow(local, at: now)
    if !isBound, let credential, nextBind.map({ now >= $0 }) ?? true {
      out.datagrams.append(.bind(user: me, credential: credential.id))
      diagnostics.bindsSent += 1
      nextBind = now &+ Self.bindInterval
    }
    if isBound, nextPing.map({ now >= $0 }) ?? true {
      probe.ping(at: now)
      out.datagrams.append(.ping(sendTime: now))
      nextPing = now &+ PingProbe.interval
    }
    collectPackets(until: now, previews: previews, into: &out)
    if canSignal { reportTalking(into: &out) }
    if let feedback = feedbackDue(at: now) { out.datagrams.append(.feedback(feedback)) }
    if let due = nextEvaluation, now >= due {
      // One evaluation however late the tick: a stalled loop does not replay the seconds it
      // missed.
      nextEvaluation = max(due &+ Self.evaluationInterval, now &+ Self.evaluationInterval / 2)
      evaluate(at: now, canSignal: canSignal, isPublishing: isPublishing, into: &out)
    }
    if canSignal { signal(into: &out) }
  }

  // MARK: Sources

  /// Turns the sources on and off as the replica says, making each the first time it starts.
  private mutating func follow(_ local: LocalMedia, at now: Int64) {
    if local.video != sending.video {
      if local.video, video == nil {
        // A camera's first frame comes at a phase of its own within the frame interval (from
        // the seed), as real cameras do: instances that turn video on in the same tick do not
        // send every frame together for ever.
        let interval = UInt64(1_000_000 / max(1, settings.frameRate))
        let phase = Int64(settings.seed % max(1, interval))
        video = try? VideoSource(
          user: me, width: settings.cameraWidth, height: settings.cameraHeight,
          frameRate: settings.frameRate, seed: settings.seed, start: now &+ phase)
      } else {
        video?.setOn(local.video, at: now)
      }
      sending.video = local.video && video != nil
      if let top = video?.layers.last {
        sent[MediaKind.video.index].width = top.width
        sent[MediaKind.video.index].height = top.height
      }
    }
    if local.audio != sending.audio {
      if local.audio, audio == nil {
        audio = try? AudioSource(user: me, seed: settings.seed, start: now)
        if let talkingOverride { audio?.setTalking(talkingOverride, at: now) }
      } else {
        audio?.setMuted(!local.audio, at: now)
      }
      sending.audio = local.audio && audio != nil
      // The service stops counting a muted or disconnected microphone as talking itself.
      if !sending.audio { reportedTalking = false }
    }
    if local.share != sending.share {
      if local.share, share == nil {
        share = try? ShareSource(user: me, seed: settings.seed, start: now)
      } else {
        share?.setPaused(!local.share, at: now)
      }
      sending.share = local.share && share != nil
      if let layer = share?.layer {
        sent[MediaKind.share.index].width = layer.width
        sent[MediaKind.share.index].height = layer.height
      }
    }
  }

  /// Takes the packets due from every source; they go out only while bound.
  private mutating func collectPackets(
    until now: Int64, previews: LocalMedia, into out: inout MediaOutput
  ) {
    if video != nil, let packets = video?.packets(until: now), !packets.isEmpty {
      let top = UInt8((video?.layers.count ?? 1) - 1)
      take(packets, kind: .video, previewLayer: previews.video ? top : nil, at: now, into: &out)
    }
    if audio != nil, let packets = audio?.packets(until: now), !packets.isEmpty {
      take(packets, kind: .audio, previewLayer: nil, at: now, into: &out)
    }
    if share != nil, let packets = share?.packets(until: now), !packets.isEmpty {
      take(packets, kind: .share, previewLayer: previews.share ? 0 : nil, at: now, into: &out)
    }
  }

  /// Sends the packets a source made, stamped with the time they leave (`now`), not the time
  /// their frame was due: a frame taken late by the tick is late at the sender, and the
  /// receiver's one-way delay is the network's alone.
  private mutating func take(
    _ packets: [MediaPacket], kind: MediaKind, previewLayer: UInt8?, at now: Int64,
    into out: inout MediaOutput
  ) {
    let slot = kind.index
    for var packet in packets {
      packet.sendTime = now
      if packet.stream.layer == 0, sent[slot].lastFrameID != packet.frameID {
        sent[slot].lastFrameID = packet.frameID
        sent[slot].frames += 1
        sent[slot].intervalFrames += 1
      }
      if let previewLayer, packet.stream.layer == previewLayer,
        out.previews.last.map({ $0.frameID != packet.frameID || $0.kind.rawValue != kind.rawValue })
          ?? true
      {
        out.previews.append(
          VideoFrame(
            user: me, kind: kind == .share ? .share : .video, width: Int(packet.width),
            height: Int(packet.height), layer: Int(packet.stream.layer), frameID: packet.frameID,
            firstSequence: packet.sequence, isKeyFrame: packet.isKeyFrame,
            sendTime: packet.sendTime, receiveTime: packet.sendTime))
      }
      guard isBound else { continue }
      sent[slot].packets += 1
      sent[slot].bytes += packet.datagramSize
      sent[slot].intervalBytes += packet.datagramSize
      out.datagrams.append(.packet(packet))
    }
  }

  /// Sends the talking model's state when it differs from what was last reported.
  private mutating func reportTalking(into out: inout MediaOutput) {
    guard sending.audio, let talking = audio?.isTalking, talking != reportedTalking else { return }
    reportedTalking = talking
    out.commands.append(.reportTalking(talking))
  }

  // MARK: Signalling

  /// Sends the announcements, withdrawals and subscriptions that differ from what was sent, in
  /// stream order.
  ///
  /// - Parameter out: Where the requests go.
  mutating func signal(into out: inout MediaOutput) {
    guard needsSignal else { return }
    needsSignal = false
    var announcements: [StreamID: MediaRequest] = [:]
    if sending.video, let video {
      for (layer, stream) in zip(video.layers, video.streams) {
        announcements[stream] = .announce(
          stream, bitrate: UInt32(clamping: layer.bitrate), width: UInt16(clamping: layer.width),
          height: UInt16(clamping: layer.height))
      }
    }
    if sending.audio, let audio {
      announcements[audio.stream] = .announce(
        audio.stream, bitrate: UInt32(AudioSource.bitrate), width: 0, height: 0)
    }
    if sending.share, let share {
      announcements[share.stream] = .announce(
        share.stream, bitrate: UInt32(clamping: share.layer.bitrate),
        width: UInt16(clamping: share.layer.width), height: UInt16(clamping: share.layer.height))
    }
    if announcements != announced {
      for stream in announced.keys.sorted() where announcements[stream] == nil {
        out.requests.append(.withdraw(stream))
      }
      for stream in announcements.keys.sorted() where announced[stream] != announcements[stream] {
        if let request = announcements[stream] { out.requests.append(request) }
      }
      announced = announcements
    }
    if wanted != subscribed || !unsubscribeAgain.isEmpty {
      // Ends first, so that the subscriptions that follow fit the service's limit.
      let ended = unsubscribeAgain.union(subscribed.keys).filter { wanted[$0] == nil }
      for key in ended.sorted() {
        out.requests.append(.unsubscribe(publisher: key.user, kind: key.kind))
        unsubscribed.insert(key)
      }
      unsubscribeAgain = []
      for key in wanted.keys.sorted() where subscribed[key] != wanted[key] {
        if let lines = wanted[key] {
          out.requests.append(.subscribe(publisher: key.user, kind: key.kind, maxLines: lines))
          unsubscribed.remove(key)
        }
      }
      subscribed = wanted
    }
  }
}
