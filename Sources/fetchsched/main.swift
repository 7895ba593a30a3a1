import FetchCLI

await FetchSched.start()
