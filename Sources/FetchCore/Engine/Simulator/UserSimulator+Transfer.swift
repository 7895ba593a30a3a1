extension UserSimulator {
    /// Hands a large payload to a discretionary transfer (see ``TransferQueue``); the app's
    /// content is fresh once it completes.
    func enqueueTransfer(_ i: Int, contentTime: Int64) {
        let p = state.apps[i].settings.profile
        state.tally.background.transfers += 1
        state.transfers.add(Transfer(app: i, contentTime: contentTime, handedOverAt: state.now, bytes: p.transferBytes,
                                     bytesLeft: p.transferBytes, needsCharging: p.transferNeedsCharging),
                            now: state.now, context: state.context, rate: run.scenario.transferBytesPerSecond)
    }

    func updateTransfers() {
        state.transfers.update(now: state.now, context: state.context, rate: run.scenario.transferBytesPerSecond)
    }

    /// Completes the transfers due now: their bytes and energy count (Wi-Fi), and their app's
    /// content is refreshed as of the fetch that handed them over.
    func finishTransfers() {
        let now = state.now
        for t in state.transfers.takeDone(now: now, rate: run.scenario.transferBytesPerSecond) {
            state.tally.background.transfersCompleted += 1
            state.tally.background.transferDelayMs += now - t.handedOverAt
            state.tally.background.transferBytes += t.bytes
            state.tally.wifiBytes += t.bytes
            state.tally.energyMicroJ += run.scenario.energy.wifi.transferMicroJ(t.bytes)
            state.apps[t.app].advanceContent(to: now)
            state.apps[t.app].refresh(contentTime: t.contentTime)
            state.apps[t.app].refreshedByPush = false
        }
        updateTransfers()
    }
}
