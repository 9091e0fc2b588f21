-- GET /resolve?url=… over the links of generate-production.py (URLS_FILE, one a line), each
-- with the token CIDX replaced:
--   SCENARIO=distinct  by a number unique to the request (RUN_ID, the wrk thread and a counter),
--                      so no two requests of a run, nor of runs with different RUN_IDs, are alike;
--   SCENARIO=repeat    by 0, over the first REPEAT_URLS links (default 1000), which then repeat.
local scenario = os.getenv("SCENARIO") or "distinct"
local run_id = tonumber(os.getenv("RUN_ID") or "0")
local limit = scenario == "repeat" and tonumber(os.getenv("REPEAT_URLS") or "1000") or math.huge
local urls = {}
for line in io.lines(os.getenv("URLS_FILE")) do
  if #line > 0 and #urls < limit then urls[#urls + 1] = line end
end

local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("thread_id", threads)
end

local i = 0
function request()
  i = i + 1
  local url = urls[((i + (thread_id or 0) * 7919) % #urls) + 1]
  local click = "0"
  if scenario == "distinct" then
    click = string.format("%dx%dx%d", run_id, thread_id or 0, i)
  end
  return wrk.format("GET", "/resolve?url=" .. url:gsub("CIDX", click))
end
