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

    private init(port: Int, listener: any Channel, open: NIOLockedValueBox<[any Channel]>) {
        self.port = port
        self.listener = listener
        self.open = open
    }

    /// A proxy to `host`:`port`, listening on a free port of 127.0.0.1.
    public static func start(to host: String, port: Int) async throws -> OutageProxy {
        let open = NIOLockedValueBox<[any Channel]>([])
        let group = MultiThreadedEventLoopGroup.singleton
        let listener = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { inbound in
                ClientBootstrap(group: inbound.eventLoop).connect(host: host, port: port).flatMap { outbound in
                    open.withLockedValue { $0 += [inbound, outbound] }
                    let (a, b) = Glue.pair()
                    return inbound.pipeline.addHandler(a).and(outbound.pipeline.addHandler(b)).map { _ in }
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return OutageProxy(port: listener.localAddress!.port!, listener: listener, open: open)
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

        static func pair() -> (Glue, Glue) {
            let (a, b) = (Glue(), Glue())
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
            other.writeAndFlush(wrapOutboundOut(unwrapInboundIn(data)), promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            partner?.context?.close(promise: nil)
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}
