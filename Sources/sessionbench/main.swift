print("sessionbench")
