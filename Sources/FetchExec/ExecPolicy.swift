#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FetchCore

/// The other end of an `exec:` policy: a process that reads JSON Lines and answers each
/// decision point with one line. The command line provides it; the core does no I/O.
public protocol PolicyPeer: AnyObject, Sendable {
    /// Sends a line that needs no answer (an event).
    func tell(_ line: String)
    /// Sends a line and returns the answer line; nil once the peer has failed.
    func ask(_ line: String) -> String?
    /// Records why the policy cannot go on; the first failure is kept and ends the run.
    func fail(_ message: String)
}

/// A policy in any language: each event and each decision point goes to a process as a JSON
/// line, and the process answers each decision point with the apps to fetch (docs/policies.md
/// has the protocol).
///
/// The engine still enforces every hard rule on what the process asks, and counts each
/// refusal. A bad answer (not JSON, an app the log has not named, a wake-up in the past) fails
/// the run with a message; nothing a process answers can break a rule or stop the engine.
public struct ExecPolicy: FetchPolicy {
    public struct UserState { var user: Int32 = -1 }

    public let command: String
    package let peer: any PolicyPeer
    /// The shortest wait a `wakeAt` gets: a sooner one is moved to this long after now. A process
    /// answering `t + 1` at every timer would otherwise be woken every millisecond and the replay
    /// would never end; moving it (rather than failing) keeps a policy that asks for the next
    /// round hour a few seconds before it, which its tick serves anyway.
    package static let minimumWakeGap = Millis.minute
    /// The run's name tables, set when a replay starts (each worker has its own).
    var names: BoundNames?

    /// Name tables of one replay. `@unchecked`: a policy value holding them is made inside
    /// ``replay(scenario:seed:users:apps:trace:archive:)`` and used only by that replay, on its thread.
    struct BoundNames: @unchecked Sendable {
        let users: NameTable
        let apps: NameTable
    }

    package init(command: String, peer: any PolicyPeer) {
        self.command = command
        self.peer = peer
    }

    /// The command of `exec:<command>`, nil for any other name.
    public static func command(in name: String) -> String? {
        guard name.hasPrefix("exec:"), name.utf8.count > 5, name.utf8.count <= 4096 else { return nil }
        return String(name.dropFirst(5))
    }

    public var name: String { "exec:" + command }
    public static var observesEvents: Bool { true }
    public func makeState() -> UserState { UserState() }

    public func replay(scenario: Scenario, seed: UInt64, users: NameTable, apps: NameTable, trace: (any TraceSink)?,
                       archive: (any UserRowArchive)?) -> ReplayDriver {
        var bound = self
        bound.names = BoundNames(users: users, apps: apps)
        return ReplayDriver(Replay(policy: bound, scenario: scenario, seed: seed, users: users, apps: apps, trace: trace, archive: archive))
    }

    public func observe(_ event: UsageEvent, state: inout UserState) {
        state.user = event.user
        guard let names else { return }
        peer.tell(ExecMessages.event(event, user: names.users[event.user], app: event.app >= 0 ? names.apps[event.app] : ""))
    }

    public func decide(_ point: DecisionPoint, view: UserView, state: inout UserState, decision: inout Decision) {
        guard let names, state.user >= 0 else { return }
        let request = ExecMessages.decide(point, view: view, user: names.users[state.user], apps: names.apps)
        guard let answer = peer.ask(request), answer != "{}" else { return }  // nothing to do: the common answer
        do {
            let parsed = try JSONDecoder().decode(ExecMessages.Answer.self, from: Data(answer.utf8))
            for app in parsed.fetch ?? [] {
                guard let id = names.apps.existingID(app) else {
                    throw ExecMessages.AnswerError("asked to fetch '\(InputBounds.printable(app))', an app the log has not named")
                }
                decision.fetches.append(id)
            }
            if let wake = parsed.wakeAt {
                guard wake > view.now.millis, InputBounds.timestamps.contains(wake) else {
                    throw ExecMessages.AnswerError("wakeAt \(wake) is not after now (\(view.now.millis)) and before 2100")
                }
                decision.wakeAt = Instant(millis: max(wake, view.now.millis + Self.minimumWakeGap))
            }
        } catch let e as ExecMessages.AnswerError {
            peer.fail("policy '\(name)': \(e.message), answering: \(InputBounds.printable(answer))")
        } catch {
            peer.fail("policy '\(name)': the answer is not {\"fetch\": [apps], \"wakeAt\": ms}: \(InputBounds.printable(answer))")
        }
    }
}
