import FetchCore

/// Android's usage-event types (`UsageEvents.Event`), by code and by name, and what each becomes
/// in the log: one home for the usage-statistics dumps, their exports and Digital Wellbeing's
/// database, which all record them.
enum AndroidEvent {
    enum Role { case foreground, screenOn, screenOff, unlock, shutdown, notification, ignored }

    /// `UsageEvents.Event` type codes, 0 to 31, by their names in the dump.
    static let codes = [
        "NONE", "ACTIVITY_RESUMED", "ACTIVITY_PAUSED", "END_OF_DAY", "CONTINUE_PREVIOUS_DAY", "CONFIGURATION_CHANGE",
        "SYSTEM_INTERACTION", "USER_INTERACTION", "SHORTCUT_INVOCATION", "CHOOSER_ACTION", "NOTIFICATION_SEEN",
        "STANDBY_BUCKET_CHANGED", "NOTIFICATION_INTERRUPTION", "SLICE_PINNED_PRIV", "SLICE_PINNED", "SCREEN_INTERACTIVE",
        "SCREEN_NON_INTERACTIVE", "KEYGUARD_SHOWN", "KEYGUARD_HIDDEN", "FOREGROUND_SERVICE_START", "FOREGROUND_SERVICE_STOP",
        "CONTINUING_FOREGROUND_SERVICE", "ROLLOVER_FOREGROUND_SERVICE", "ACTIVITY_STOPPED", "ACTIVITY_DESTROYED",
        "FLUSH_TO_DISK", "DEVICE_SHUTDOWN", "DEVICE_STARTUP", "USER_UNLOCKED", "USER_STOPPED", "LOCUS_ID_SET",
        "APP_COMPONENT_USED",
    ]

    /// What each known type becomes; the names before Android 10 (`MOVE_TO_FOREGROUND`) too.
    /// A notification that interrupted the user is a `notification` of its app.
    /// The keyguard going away is an unlock (``ImportedRow/Kind/unlocked``): the screen came on
    /// for the user, unless it came on just before (``ForegroundRules``). A shutdown ends the
    /// app in front and the screen (``ImportedRow/Kind/shutdown``); the startup after it opens
    /// nothing, the first unlock does.
    static let roles: [String: Role] = {
        var roles = Dictionary(uniqueKeysWithValues: codes.map { ($0, Role.ignored) })
        roles["ACTIVITY_RESUMED"] = .foreground
        roles["MOVE_TO_FOREGROUND"] = .foreground
        roles["MOVE_TO_BACKGROUND"] = .ignored
        roles["SCREEN_INTERACTIVE"] = .screenOn
        roles["SCREEN_NON_INTERACTIVE"] = .screenOff
        roles["KEYGUARD_HIDDEN"] = .unlock
        roles["DEVICE_SHUTDOWN"] = .shutdown
        // A notification that interrupted the user (sound, vibration or a heads-up): its app
        // posted it, and the phone was awake to show it.
        roles["NOTIFICATION_INTERRUPTION"] = .notification
        return roles
    }()

    /// The name of a numeric type code; a code past the table is named as the dump names it
    /// (`UNKNOWN_TYPE_32`), to be counted and passed over.
    static func typeName(code: String) throws(ImportProblem) -> String {
        guard code.utf8.count <= 4, let n = Int(code) else {
            throw ImportProblem("unknown event type", "usage event type code '\(InputBounds.printable(code))' is not a number from 0 to 9999")
        }
        return typeName(code: n)
    }

    /// The name of a type code that is a number already (a database's column).
    static func typeName(code n: Int) -> String {
        codes.indices.contains(n) ? codes[n] : "UNKNOWN_TYPE_\(n)"
    }

    /// Whether `type` is written as a type's name is (capitals, digits and underscores, a
    /// capital first, at most 64): one this reader does not know yet, not a malformed line.
    static func isTypeName(_ type: String) -> Bool {
        let bytes = type.utf8
        guard let first = bytes.first, (65...90).contains(first), bytes.count <= 64 else { return false }
        return bytes.allSatisfy { (65...90).contains($0) || (48...57).contains($0) || $0 == 95 }  // A-Z, 0-9, _
    }

    /// What one event of `type` becomes in the log, or nil for a type the log does not keep
    /// (counted in `log`).
    ///
    /// An activity shown in another app's task (a photo picker, a document chooser, an intent
    /// resolver: `taskRoot` is that app) belongs to that app: it is the app's screen the user is
    /// on, not an open of its own. A home-screen activity (`className`) is the home screen
    /// whatever its package.
    static func kind(type: String, package: String, taskRoot: String?, className: String?,
                     log: inout ImportedLog) throws(ImportProblem) -> ImportedRow.Kind? {
        guard let role = roles[type] else {
            // A type newer than this reader (or one the dump itself cannot name: `UNKNOWN_TYPE_32`)
            // says nothing the log keeps: counted and passed over, as a known type left out is.
            guard isTypeName(type) else {
                throw ImportProblem("unknown event type", "usage event type '\(InputBounds.printable(type))' is not a type name or code")
            }
            log.ignore("unknown usage event type \(type)")
            return nil
        }
        switch role {
        case .foreground where className.map(ForegroundRules.isHomeActivity) ?? false:
            return .home
        case .foreground:
            let inTask = taskRoot.map { !$0.isEmpty && $0 != "null" && $0 != package } ?? false
            return .foreground(app: inTask ? try ImportFields.name(taskRoot!, "taskRootPackage") : try ImportFields.name(package, "package"))
        case .screenOn: return .event(.screenOn, app: "", value: "")
        case .screenOff: return .event(.screenOff, app: "", value: "")
        case .unlock: return .unlocked
        case .shutdown: return .shutdown
        case .notification: return .event(.notification, app: try ImportFields.name(package, "package"), value: "")
        case .ignored:
            log.ignore("usage event \(type)")
            return nil
        }
    }
}
