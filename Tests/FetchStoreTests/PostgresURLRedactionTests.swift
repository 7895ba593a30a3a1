import FetchPostgres
import Testing

/// Issue 64: a password is never echoed, wherever in the URL it was put.
struct PostgresURLRedactionTests {
    @Test(arguments: [
        "postgres://fetch@db.internal/prod?password=hunter2-secret",
        "postgres://fetch@db.internal/prod?sslmode=disable&password=hunter2-secret",
        "postgres://fetch:hunter2-secret@db.internal/prod?sslmode=maybe",
        "postgres://fetch:hunter2-secret@db.internal:99999/prod",
    ])
    func aRefusedURLNeverShowsItsPassword(url: String) {
        do {
            _ = try PostgresURL(url)
            Issue.record("'\(url)' was taken")
        } catch {
            #expect(!"\(error)".contains("hunter2"), "\(error)")
            #expect("\(error)".contains("db.internal"), "\(error)")
        }
    }
}
