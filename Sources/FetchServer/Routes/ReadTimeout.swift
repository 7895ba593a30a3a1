import FetchStorage
import NIOCore
import NIOHTTPTypes

/// Closes a connection once it has sent nothing for a while (NIO's `IdleStateHandler` tells
/// when): an idle keep-alive connection and a request left half-sent alike, so slow clients
/// cannot hold connections open. A request must also arrive whole within ``wholeRequestFactor``
/// read timeouts of its head: a body trickled a byte at a time, never idle for long, is cut off
/// all the same.
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
    /// How long a request may take to arrive, from its head to its end.
    private let wholeRequest: TimeAmount
    /// The deadline of the request being read, cancelled at its end.
    private var deadline: Scheduled<Void>?

    /// How many read timeouts a whole request may take to arrive.
    static let wholeRequestFactor: Int64 = 3

    init(timeout: TimeAmount) {
        wholeRequest = .nanoseconds(timeout.nanoseconds * Self.wholeRequestFactor)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            deadline?.cancel()
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            deadline = context.eventLoop.scheduleTask(in: wholeRequest) { loopBound.value.close(promise: nil) }
        case .end:
            deadline?.cancel()
            deadline = nil
            unanswered += 1
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
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
        [IdleStateHandler(readTimeout: timeout), ReadTimeoutCloser(timeout: timeout)]
    }
}
