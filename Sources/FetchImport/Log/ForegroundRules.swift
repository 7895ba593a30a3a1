import FetchCore

/// Which foreground moves become `open` events.
///
/// A launcher (the home screen) is not an app the user reads: its moves are dropped, and coming
/// back to an app from it is a new open. System UI (the notification shade, the lock screen)
/// and keyboards pass over an app without leaving it: they are dropped, and the app's return is
/// not a new open. The same app resumed again and again (moving between its own screens) is one
/// open; the screen going off or coming on ends the run, so unlocking back into the app opens it
/// again.
///
/// `screen_on` is the moment the screen came on for the user: the screen lit, or an unlock where
/// the screen did not light just before (a source that records unlocks alone, as Digital
/// Wellbeing's database does, or an unlock with the screen left on). An unlock after the screen
/// lit, with no `screen_off` between, is the same wake: it is dropped.
public struct ForegroundRules: Sendable {
    /// Packages dropped as launchers, beyond those the name shows (`launcher`, `.home`).
    public var launchers: Set<String>
    /// Packages dropped as system UI or keyboards, beyond those the name shows (`inputmethod`, `keyboard`).
    public var overlays: Set<String>

    public init(launchers: Set<String> = Self.knownLaunchers, overlays: Set<String> = Self.knownOverlays) {
        self.launchers = launchers
        self.overlays = overlays
    }

    public static let knownLaunchers: Set<String> = [
        "com.google.android.apps.nexuslauncher", "com.android.launcher", "com.android.launcher3",
        "com.sec.android.app.launcher", "com.miui.home", "com.huawei.android.launcher",
        "com.oppo.launcher", "net.oneplus.launcher", "com.teslacoilsw.launcher", "com.microsoft.launcher",
        "com.apple.springboard",
    ]

    public static let knownOverlays: Set<String> = [
        "android", "com.android.systemui", "com.google.android.inputmethod.latin",
        "com.samsung.android.honeyboard", "com.touchtype.swiftkey", "com.sec.android.inputmethod",
        "com.google.android.permissioncontroller", "com.android.permissioncontroller",
    ]

    public enum Role { case app, launcher, overlay }

    /// Whether an activity is a home screen, whatever its package: one in a `launcher` package
    /// path (`com.google.android.launcher.GEL`, the Google Now Launcher, shipped inside the
    /// Google app `com.google.android.googlequicksearchbox`, whose search screen is an app).
    public static func isHomeActivity(_ className: String) -> Bool {
        className.lowercased().split(separator: ".").dropLast().contains("launcher")
    }

    public func role(of package: String) -> Role {
        let lower = package.lowercased()
        if launchers.contains(package) || lower.contains("launcher") || lower.hasSuffix(".home") { return .launcher }
        if overlays.contains(package) || lower.contains("inputmethod") || lower.contains("keyboard") { return .overlay }
        return .app
    }

    /// One user's rows in time order, with foreground moves turned into opens or dropped
    /// (counted in `dropped`), unlocks into `screen_on` and shutdowns into `screen_off`, or
    /// dropped as part of a wake or a sleep already kept (counted in `sameWake`).
    public func apply(_ rows: [ImportedRow], dropped: inout Int, sameWake: inout Int) -> [ImportedRow] {
        var out: [ImportedRow] = []
        out.reserveCapacity(rows.count)
        var current: String?
        var lit = false  // the screen came on, and no unlock or screen_off came since
        var off = false  // the last screen row kept is a screen_off
        for row in rows {
            switch row.kind {
            case .foreground(let app):
                switch role(of: app) {
                case .launcher: current = nil; dropped += 1
                case .overlay: dropped += 1
                case .app:
                    if current == app { dropped += 1; continue }
                    current = app
                    out.append(ImportedRow(user: row.user, millis: row.millis, offsetMinutes: row.offsetMinutes,
                                           kind: .event(.open, app: app, value: "")))
                }
            case .home:
                current = nil
                dropped += 1
            case .unlocked:
                defer { lit = false }
                guard !lit else { sameWake += 1; continue }
                current = nil
                off = false
                out.append(ImportedRow(user: row.user, millis: row.millis, offsetMinutes: row.offsetMinutes,
                                       kind: .event(.screenOn, app: "", value: "")))
            case .shutdown:
                current = nil
                lit = false
                guard !off else { sameWake += 1; continue }
                off = true
                out.append(ImportedRow(user: row.user, millis: row.millis, offsetMinutes: row.offsetMinutes,
                                       kind: .event(.screenOff, app: "", value: "")))
            case .event(let kind, _, _):
                if kind == .screenOff || kind == .screenOn { current = nil }
                lit = kind == .screenOn || (lit && kind != .screenOff)
                if kind == .screenOff || kind == .screenOn { off = kind == .screenOff }
                out.append(row)
            }
        }
        return out
    }

    /// ``apply(_:dropped:sameWake:)``, counting both kinds of dropped rows together.
    public func apply(_ rows: [ImportedRow], dropped: inout Int) -> [ImportedRow] {
        var sameWake = 0
        defer { dropped += sameWake }
        return apply(rows, dropped: &dropped, sameWake: &sameWake)
    }
}
