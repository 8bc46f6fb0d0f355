-- Service acquire: reentrant_acquire.lua (which follows this, KEYS and
-- ARGV[1..4] as it reads them) behind the starving waiters' priority
-- (lib_starve.lua): KEYS[2] the starving waiters' queue, ARGV[5] their key
-- prefix, ARGV[6] the caller's token if it is starving (else ''), ARGV[7]
-- their keys' TTL in ms. Refused by the priority, it returns 0, as when
-- another owner holds the lock.
if not starve_turn(KEYS[1], ARGV[1], KEYS[#KEYS], ARGV[5], ARGV[6] or '', ARGV[7]) then
  return 0
end
