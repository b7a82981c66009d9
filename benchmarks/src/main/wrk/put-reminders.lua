-- wrk script for benchmarks/rest-door-wrk: every request is a PUT of a new one-shot reminder of
-- namespace default, due a day later (nothing fires while it runs).
-- Script arguments: key prefix (distinct per run), value of the Authorization header.
local threads = {}

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

function init(args)
  prefix = args[1] .. "-" .. id .. "-"
  authorization = args[2]
  counter = 0
end

function request()
  counter = counter + 1
  return wrk.format("PUT", "/belfry/api/v1/reminders/default/" .. prefix .. counter,
    {["Content-Type"] = "application/json", ["Authorization"] = authorization},
    '{"delay":"P1D"}')
end
