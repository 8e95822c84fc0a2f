"""Well-behaved: an async main is awaited."""
import asyncio


async def main(game_state, side):
    await asyncio.sleep(0.01)
    return ("north", "south", "none")
