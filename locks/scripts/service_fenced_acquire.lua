-- Service fenced acquire: reentrant_fenced_acquire.lua (which follows
-- this, KEYS[1..2] and ARGV[1..4] as it reads them) behind the starving
-- waiters' priority (lib_starve.lua): KEYS[3] the starving waiters' queue,
-- ARGV[5..7] as in service_acquire.lua. Refused by the priority, it
-- returns {0, 0}, as when another owner holds the lock.
if not starve_turn(KEYS[1], ARGV[1], KEYS[#KEYS], ARGV[5], ARGV[6] or '', ARGV[7]) then
  return {0, 0}
end
