"""A bot that plays random legal moves (after --moves, if any).

    python3 -S tests/bots/random_bot.py [--seed N] [--moves "d2c2 ..."] [--check] [--log FILE]
"""
import _proto

if __name__ == "__main__":
    _proto.run()
