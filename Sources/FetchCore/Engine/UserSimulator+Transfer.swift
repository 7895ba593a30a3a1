extension UserSimulator {
    /// Hands a large payload to a discretionary transfer: it runs only on Wi-Fi (and only while
    /// charging if the profile says so), with no 30-second limit; the app's content is fresh
    /// once it completes.
    func enqueueTransfer(_ i: Int, contentTime: Int64) {
        let p = apps[i].settings.profile
        tally.background.transfers += 1
        transfers.append(Transfer(app: i, contentTime: contentTime, handedOverAt: now, bytes: p.transferBytes,
                                  bytesLeft: p.transferBytes, needsCharging: p.transferNeedsCharging))
        updateTransfers()
    }

    /// Starts the transfers the context now allows and pauses those it no longer does; then
    /// finds the next completion.
    func updateTransfers() {
        let rate = run.scenario.transferBytesPerSecond
        var next = Int64.max
        for k in transfers.indices {
            let allowed = context.network == .wifi && (!transfers[k].needsCharging || context.charging)
            if let since = transfers[k].runningSince, !allowed {
                transfers[k].bytesLeft = max(0, transfers[k].bytesLeft - (now - since) * rate / 1000)
                transfers[k].runningSince = nil
            } else if transfers[k].runningSince == nil && allowed {
                transfers[k].runningSince = now
            }
            if let since = transfers[k].runningSince {
                next = min(next, since + (transfers[k].bytesLeft * 1000 + rate - 1) / rate)
            }
        }
        transferDone = next
    }

    /// Completes the transfers due now: their bytes and energy count (Wi-Fi), and their app's
    /// content is refreshed as of the fetch that handed them over.
    func finishTransfers() {
        let rate = run.scenario.transferBytesPerSecond
        var k = 0
        while k < transfers.count {
            let t = transfers[k]
            if let since = t.runningSince, since + (t.bytesLeft * 1000 + rate - 1) / rate <= now {
                tally.background.transfersCompleted += 1
                tally.background.transferDelayMs += now - t.handedOverAt
                tally.background.transferBytes += t.bytes
                tally.wifiBytes += t.bytes
                tally.energyMicroJ += run.scenario.energy.wifi.transferMicroJ(t.bytes)
                apps[t.app].advanceContent(to: now)
                apps[t.app].refresh(contentTime: t.contentTime)
                apps[t.app].refreshedByPush = false
                transfers.remove(at: k)
            } else {
                k += 1
            }
        }
        updateTransfers()
    }
}

/// A discretionary background transfer handed over by a fetch.
struct Transfer {
    var app: Int
    var contentTime: Int64
    var handedOverAt: Int64
    var bytes: Int64
    var bytesLeft: Int64
    var needsCharging: Bool
    /// When it last started running, nil while it waits.
    var runningSince: Int64? = nil
}
