import FetchCLI

FetchSched.main()
