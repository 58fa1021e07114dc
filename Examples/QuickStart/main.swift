print("quickstart")
