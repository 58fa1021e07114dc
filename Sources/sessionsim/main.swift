print("sessionsim")
