# cctflow PARCS workload for JRuby: deterministic, offline, CPU-bound; the same script for both releases.
# Usage: workload.rb SECONDS

def fib(n)
  n < 2 ? n : fib(n - 1) + fib(n - 2)
end

def sieve(limit)
  flags = Array.new(limit + 1, true)
  primes = []
  (2..limit).each do |i|
    next unless flags[i]
    primes << i
    (i * i).step(limit, i) { |j| flags[j] = false }
  end
  primes
end

def word_counts(text)
  counts = Hash.new(0)
  text.split.each { |w| counts[w.delete('.,;').downcase] += 1 }
  counts.sort_by { |w, c| [-c, w] }.first(10)
end

def render(rows)
  rows.map { |w, c| format('%-12s %5d', w, c) }.join("\n")
end

def json_like(depth)
  return { 'leaf' => [1, 2.5, 'x'] } if depth.zero?
  { "node#{depth}" => [json_like(depth - 1), json_like(depth - 1)] }
end

def walk(obj)
  case obj
  when Hash then obj.values.sum { |v| walk(v) } + obj.size
  when Array then obj.sum { |v| walk(v) }
  else 1
  end
end

TEXT = (('the quick brown fox jumps over the lazy dog. ' * 40) + ('a stitch in time saves nine; ' * 25)) * 4

seconds = (ARGV[0] || '30').to_f
deadline = Time.now + seconds
rounds = 0
checksum = 0
while Time.now < deadline
  checksum += fib(20)
  checksum += sieve(20_000).size
  checksum += render(word_counts(TEXT)).size
  checksum += walk(json_like(9))
  rounds += 1
end
puts "rounds #{rounds} checksum #{checksum}"
