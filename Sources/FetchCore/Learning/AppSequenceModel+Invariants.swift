extension AppSequenceModel {
    /// What the model keeps twice and finds disagreeing, empty when all agrees: `order0Counts` must
    /// be `order0`'s count of every app, the context tables the ones stored for the last app
    /// and the last two, the blend theirs, and every app's next chance the one the tables give.
    package var invariantViolations: [String] {
        var found: [String] = []
        for id in 0..<max(apps.count, order0Counts.count) {
            let kept = id < order0Counts.count ? order0Counts[id] : 0
            if kept != order0.count(of: Int32(id)) { found.append("order0Counts[\(id)] is \(kept), order0 counts \(order0.count(of: Int32(id)))") }
        }
        if order0Counts.count != apps.count { found.append("order0Counts has \(order0Counts.count) apps, the model \(apps.count)") }
        if context1 != (last.1 >= 0 ? apps[Int(last.1)]?.next : nil) { found.append("context1 is not the last app's followers") }
        if context2 != (last.0 >= 0 ? order2[Self.key(last.0, last.1)] : nil) { found.append("context2 is not the last two apps' followers") }
        let b = blendOfTables()
        if (b.weight, b.denominator, b.rest) != (blend.weight, blend.denominator, blend.rest) { found.append("the blend is not the tables'") }
        for id in 0...apps.count where nextChance(Int32(id)) != chanceByLookup(Int32(id)) {
            found.append("nextChance(\(id)) is \(nextChance(Int32(id))), looked up \(chanceByLookup(Int32(id)))")
        }
        return found
    }

    /// ``nextChance(_:)`` worked out as PPM states it, from the tables the model learns from, with
    /// nothing kept aside: what the kept blend must give, bit for bit.
    func chanceByLookup(_ app: Int32) -> Double {
        var p = 0.0, weight = 1.0
        let tables = [last.0 >= 0 ? order2[Self.key(last.0, last.1)] : nil, last.1 >= 0 ? apps[Int(last.1)]?.next : nil, order0]
        for case let table? in tables where table.total > 0 {
            let n = Double(table.total), d = Double(table.distinct)
            p += weight * Double(table.count(of: app)) / (n + d)
            weight *= d / (n + d)
        }
        return appsSeen > 0 && Int(app) < apps.count && apps[Int(app)] != nil ? p + weight / Double(appsSeen) : p
    }
}
