import FetchServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 10, case 10, on a real socket: what a raw client can do that a well-behaved one cannot.
struct SlowClientTests {
    /// A blocking TCP client to 127.0.0.1; every read gives up after `guardSeconds`.
    final class RawClient: @unchecked Sendable {
        let fd: Int32

        init(port: Int, guardSeconds: Int = 20) throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var timeout = timeval(tv_sec: guardSeconds, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = in_port_t(UInt16(port).bigEndian)
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            let rc = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard rc == 0 else { close(fd); throw POSIXError(.ECONNREFUSED) }
        }

        deinit { close(fd) }

        func send(_ text: String) { _ = text.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) } }

        /// Runs blocking reads on a thread of their own: on the cooperative pool they could hold
        /// the threads the server under test needs to answer (two cores give two).
        static func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
            await withCheckedContinuation { c in Thread { c.resume(returning: body()) }.start() }
        }

        /// What the server sends until `marker` has come (or it closes, or the guard runs out).
        func read(until marker: String) -> String {
            var got = ""
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !got.contains(marker) {
                let n = recv(fd, &buffer, buffer.count, 0)
                guard n > 0 else { break }
                got += String(decoding: buffer[..<n], as: UTF8.self)
            }
            return got
        }

        /// Everything the server sends until it closes the connection (or the guard runs out:
        /// then `closed` is false).
        func readToClose() -> (text: String, closed: Bool) {
            var out = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = recv(fd, &buffer, buffer.count, 0)
                if n == 0 { return (String(decoding: out, as: UTF8.self), true) }
                if n < 0 { return (String(decoding: out, as: UTF8.self), false) }
                out += buffer[..<n]
            }
        }
    }

    @Test func aHalfSentRequestIsClosedAfterTheReadTimeout() async throws {
        let h = try ServerHarness(limits: ServiceLimits(readTimeoutMs: 300))
        try await h.app.test(.live) { client in
            let port = try #require(client.port)
            let raw = try RawClient(port: port)
            raw.send("POST /v1/events HTTP/1.1\r\nHost: x\r\nContent-Le")
            let (text, closed) = await RawClient.offPool { raw.readToClose() }
            #expect(closed && text.isEmpty, "\(text)")
            // scripts/slow-clients.py checks, on the release server, that it answers others meanwhile.
        }
    }

    @Test func anOverLimitDeclaredLengthIsRefusedBeforeTheBodyArrives() async throws {
        let h = try ServerHarness(limits: ServiceLimits(maxBodyBytes: 1 << 20, readTimeoutMs: 60_000))
        try await h.app.test(.live) { client in
            let port = try #require(client.port)
            let raw = try RawClient(port: port)
            raw.send("POST /v1/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 99999999999\r\n\r\n{")
            let got = await RawClient.offPool { raw.read(until: "}") }
            #expect(got.hasPrefix("HTTP/1.1 413"), "\(got)")
            #expect(got.contains(#""field":"body""#))
        }
    }
}
