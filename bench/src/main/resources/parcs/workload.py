# cctflow PARCS workload for Jython: deterministic, offline, CPU-bound; the same script for both releases.
# Usage: workload.py SECONDS
import sys, time

def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)

def sieve(limit):
    flags = [True] * (limit + 1)
    primes = []
    for i in range(2, limit + 1):
        if flags[i]:
            primes.append(i)
            for j in range(i * i, limit + 1, i):
                flags[j] = False
    return primes

def word_counts(text):
    counts = {}
    for word in text.split():
        word = word.strip('.,;').lower()
        counts[word] = counts.get(word, 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:10]

def render(rows):
    return "\n".join("%-12s %5d" % (w, c) for w, c in rows)

def json_like(depth):
    if depth == 0:
        return {"leaf": [1, 2.5, "x"]}
    return {"node%d" % depth: [json_like(depth - 1), json_like(depth - 1)]}

def walk(obj):
    if isinstance(obj, dict):
        return sum(walk(v) for v in obj.values()) + len(obj)
    if isinstance(obj, list):
        return sum(walk(v) for v in obj)
    return 1

TEXT = ("the quick brown fox jumps over the lazy dog. " * 40 + "a stitch in time saves nine; " * 25) * 4

def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 30.0
    end = time.time() + seconds
    rounds = 0
    checksum = 0
    while time.time() < end:
        checksum += fib(20)
        checksum += len(sieve(20000))
        checksum += len(render(word_counts(TEXT)))
        checksum += walk(json_like(9))
        rounds += 1
    print("rounds %d checksum %d" % (rounds, checksum))

main()
