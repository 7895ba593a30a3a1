import FetchStorage
import NIOCore
import NIOHTTPTypes

/// Closes a connection once it has sent nothing for a while (NIO's `IdleStateHandler` tells
/// when): an idle keep-alive connection and a request left half-sent alike, so slow clients
/// cannot hold connections open.
///
/// A connection whose request has arrived whole and is not answered yet is the server's turn,
/// not the client's: it is not closed, however long the answer takes (a store that does not
/// answer gives a 503 in its own bounded time), so every request read whole gets a response.
final class ReadTimeoutCloser: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Requests read whole and not yet answered (pipelined requests may queue).
    private var unanswered = 0

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) { unanswered += 1 }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { unanswered = max(0, unanswered - 1) }
        context.write(data, promise: promise)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            if unanswered == 0 { context.close(promise: nil) }
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    /// The handlers to add after HTTP decoding.
    static func handlers(timeout: TimeAmount) -> [any RemovableChannelHandler] {
        [IdleStateHandler(readTimeout: timeout), ReadTimeoutCloser()]
    }
}
