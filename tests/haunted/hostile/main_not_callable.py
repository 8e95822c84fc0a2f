main = ["north", "north", "north"]
