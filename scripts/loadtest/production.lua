-- GET /resolve?url=… over the links of generate-production.py (URLS_FILE, one a line), each
-- with the token CIDX replaced:
--   SCENARIO=distinct  by a number unique to the request (RUN_ID, the wrk thread and a counter),
--                      so no two requests of a run, nor of runs with different RUN_IDs, are alike;
--   SCENARIO=repeat    by 0, over the first REPEAT_URLS links (default 1000), which then repeat.
-- HEADERS=app adds the header fields a mobile app's HTTP client sends (nine, about 450 bytes);
-- without it a request carries only wrk's `Host`.
local scenario = os.getenv("SCENARIO") or "distinct"
local run_id = tonumber(os.getenv("RUN_ID") or "0")
local limit = scenario == "repeat" and tonumber(os.getenv("REPEAT_URLS") or "1000") or math.huge
local headers = nil
if os.getenv("HEADERS") == "app" then
  headers = {
    ["User-Agent"] = "ShopApp/5.12.3 (iPhone; iOS 17.4.1; Scale/3.00) Alamofire/5.8.1",
    ["Accept"] = "application/json, text/plain, */*",
    ["Accept-Language"] = "en-GB;q=1.0, de-GB;q=0.9, fr-GB;q=0.8",
    ["Accept-Encoding"] = "br;q=1.0, gzip;q=0.9, deflate;q=0.8",
    ["X-App-Platform"] = "ios",
    ["X-App-Version"] = "5.12.3",
    ["X-Request-Id"] = "8c1f0e7a-3b52-4a8e-9f1d-2b6c7d9e0a41",
    ["Authorization"] = "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijklmnopqrstuvwxyz012345",
    ["Connection"] = "keep-alive",
  }
end
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
  return wrk.format("GET", "/resolve?url=" .. url:gsub("CIDX", click), headers)
end
