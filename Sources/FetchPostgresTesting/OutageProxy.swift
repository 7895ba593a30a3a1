import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP proxy in front of the test cluster whose ``outage()`` ends every connection through it
/// and refuses new ones, as a server that stopped does, while the cluster keeps serving the other
/// tests (``TestDatabase/block()`` ends a database's connections but the server still answers).
public final class OutageProxy: Sendable {
    /// The port the proxy listens on, on 127.0.0.1.
    public let port: Int
    private let listener: any Channel
    private let open: NIOLockedValueBox<[any Channel]>
    /// The server's answers still to pass before the outage, once armed (``outage(afterAnswers:)``).
    private let answersLeft: NIOLockedValueBox<Int?>
    /// Whether the proxy passes nothing on (``freeze()``), new connections included.
    private let frozen: NIOLockedValueBox<Bool>
    /// Both sides of each connection on which the client has sent `LISTEN`.
    private let listeners: NIOLockedValueBox<[any Channel]>

    private init(port: Int, listener: any Channel, open: NIOLockedValueBox<[any Channel]>, answersLeft: NIOLockedValueBox<Int?>,
                 frozen: NIOLockedValueBox<Bool>, listeners: NIOLockedValueBox<[any Channel]>) {
        self.port = port
        self.listener = listener
        self.open = open
        self.answersLeft = answersLeft
        self.frozen = frozen
        self.listeners = listeners
    }

    /// Passes nothing on, either way, from now until ``thaw()``: as a database whose processes
    /// are all stopped, or a network that drops every packet without a word. What the client
    /// sends meanwhile waits in the socket, and reaches the server after the thaw, with the
    /// client's close (if it closed) after it.
    public func freeze() async {
        frozen.withLockedValue { $0 = true }
        for channel in open.withLockedValue({ $0 }) { try? await channel.setOption(ChannelOptions.autoRead, value: false).get() }
    }

    /// Freezes only the connections on which the client has sent `LISTEN` (a service's listener
    /// of version notifications), as a database whose listening backend alone was stopped: the
    /// other connections serve on. ``thaw()`` ends it.
    public func freezeListeners() async {
        for channel in listeners.withLockedValue({ $0 }) { try? await channel.setOption(ChannelOptions.autoRead, value: false).get() }
    }

    /// Passes everything on again, what waited first.
    public func thaw() async {
        frozen.withLockedValue { $0 = false }
        for channel in open.withLockedValue({ $0 }) {
            try? await channel.setOption(ChannelOptions.autoRead, value: true).get()
            channel.read()
        }
    }

    /// How many connections through the proxy are still open (each counts its two sides).
    public var openChannels: Int { open.withLockedValue { $0.filter(\.isActive).count } }

    /// A proxy to `host`:`port`, listening on a free port of 127.0.0.1.
    public static func start(to host: String, port: Int) async throws -> OutageProxy {
        let open = NIOLockedValueBox<[any Channel]>([])
        let answersLeft = NIOLockedValueBox<Int?>(nil)
        let frozen = NIOLockedValueBox(false)
        let listeners = NIOLockedValueBox<[any Channel]>([])
        let group = MultiThreadedEventLoopGroup.singleton
        // The server's side counts its answers: the last one armed ends every connection once
        // it has been handed on.
        let answered: @Sendable (Int) -> Void = { n in
            let cut = answersLeft.withLockedValue { left -> Bool in
                guard let l = left else { return false }
                left = l - n > 0 ? l - n : nil
                return left == nil
            }
            if cut { for channel in open.withLockedValue({ $0 }) { channel.close(promise: nil) } }
        }
        let listener = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { inbound in
                ClientBootstrap(group: inbound.eventLoop).connect(host: host, port: port).flatMap { outbound in
                    open.withLockedValue { $0 += [inbound, outbound] }
                    let (a, b) = Glue.pair(answered: answered) { listeners.withLockedValue { $0 += [inbound, outbound] } }
                    let added = inbound.pipeline.addHandler(a).and(outbound.pipeline.addHandler(b)).map { _ in }
                    guard frozen.withLockedValue({ $0 }) else { return added }
                    return added.flatMap { inbound.setOption(ChannelOptions.autoRead, value: false) }
                        .flatMap { outbound.setOption(ChannelOptions.autoRead, value: false) }
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return OutageProxy(port: listener.localAddress!.port!, listener: listener, open: open, answersLeft: answersLeft, frozen: frozen,
                           listeners: listeners)
    }

    /// Ends every connection through the proxy (as ``outage()`` does, the listener left open)
    /// right after the `n`-th answer from here on (a `ReadyForQuery`, which ends each statement's
    /// answer) has been handed to the client, so that the client's next statement meets a
    /// connection that closed between two statements.
    public func outage(afterAnswers n: Int) {
        answersLeft.withLockedValue { $0 = max(1, n) }
    }

    /// `url` (a `postgres://` URL) through this proxy.
    public func route(_ url: String) -> String {
        var c = URLComponents(string: url)!
        c.host = "127.0.0.1"
        c.port = port
        return c.string!
    }

    /// Stops listening and ends every connection through the proxy.
    public func outage() async throws {
        for closed in cut() { try? await closed.get() }
    }

    /// ``outage()`` from synchronous code (a source's read, in the middle of a write): returns
    /// once every connection through the proxy has closed.
    public func outageNow() {
        for closed in cut() { try? closed.wait() }
    }

    /// Closes the listener and every connection through the proxy (one already closed fails its
    /// future, which the callers ignore).
    private func cut() -> [EventLoopFuture<Void>] {
        [listener.close()] + open.withLockedValue { $0 }.map { $0.close() }
    }

    /// Hands what one side reads to the other, and closes both when either closes. Both sides
    /// of a pair are on one event loop, so a partner is called directly.
    private final class Glue: ChannelDuplexHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private var partner: Glue?
        private var context: ChannelHandlerContext?
        /// On the server's side: reads its messages, and hears how many answers each read ended.
        private var answers: AnswerCounter?
        private let answered: (@Sendable (Int) -> Void)?
        /// On the client's side: told once when the client sends `LISTEN`.
        private var listening: (@Sendable () -> Void)?

        private init(answered: (@Sendable (Int) -> Void)?, listening: (@Sendable () -> Void)?) {
            self.answered = answered
            self.listening = listening
            answers = answered == nil ? nil : AnswerCounter()
        }

        /// The client's side, then the server's.
        static func pair(answered: @escaping @Sendable (Int) -> Void, listening: @escaping @Sendable () -> Void) -> (Glue, Glue) {
            let (a, b) = (Glue(answered: nil, listening: listening), Glue(answered: answered, listening: nil))
            a.partner = b
            b.partner = a
            return (a, b)
        }

        func handlerAdded(context: ChannelHandlerContext) { self.context = context }

        func handlerRemoved(context: ChannelHandlerContext) {
            self.context = nil
            partner = nil
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard let other = partner?.context else { return }
            let bytes = unwrapInboundIn(data)
            if let told = listening, bytes.readableBytesView.firstRange(of: Array("LISTEN ".utf8)) != nil {
                listening = nil
                told()
            }
            let ended = answers?.read(bytes) ?? 0
            other.writeAndFlush(wrapOutboundOut(bytes), promise: nil)
            if ended > 0 { answered?(ended) }
        }

        func channelInactive(context: ChannelHandlerContext) {
            partner?.context?.close(promise: nil)
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }

    /// Follows the server's messages (a type byte, then a length that counts itself) to count
    /// its `ReadyForQuery` messages. The first byte of a connection may be the one-byte answer to
    /// an SSL request: `N` (none, messages follow) or `S` (encrypted from there: not counted).
    struct AnswerCounter {
        private var header: [UInt8] = []
        private var type: UInt8 = 0
        private var left = 0
        private var started = false
        private var encrypted = false

        /// Reads the next bytes from the server; returns how many `ReadyForQuery` messages they end.
        mutating func read(_ bytes: ByteBuffer) -> Int {
            var ended = 0
            for byte in bytes.readableBytesView where !encrypted {
                if !started {
                    started = true
                    if byte == UInt8(ascii: "N") { continue }
                    if byte == UInt8(ascii: "S") { encrypted = true; continue }
                }
                if left > 0 {
                    left -= 1
                    if left == 0 && type == UInt8(ascii: "Z") { ended += 1 }
                    continue
                }
                header.append(byte)
                guard header.count == 5 else { continue }
                type = header[0]
                left = header[1...].reduce(0) { $0 << 8 | Int($1) } - 4
                header.removeAll(keepingCapacity: true)
                if left <= 0 {
                    left = 0
                    if type == UInt8(ascii: "Z") { ended += 1 }
                }
            }
            return ended
        }
    }
}
