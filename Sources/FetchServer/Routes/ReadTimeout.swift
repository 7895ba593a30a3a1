import NIOCore

/// Closes a connection once it has sent nothing for a while (NIO's `IdleStateHandler` tells
/// when): an idle keep-alive connection and a request left half-sent alike, so slow clients
/// cannot hold connections open. Every route answers well within the timeout.
final class ReadTimeoutCloser: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Any

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    /// The handlers to add after HTTP decoding.
    static func handlers(timeout: TimeAmount) -> [any RemovableChannelHandler] {
        [IdleStateHandler(readTimeout: timeout), ReadTimeoutCloser()]
    }
}
