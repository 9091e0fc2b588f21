-- Cycles GET /resolve?url=… over the URLs in scripts/loadtest/urls.txt (one per line,
-- already percent-encoded). Each wrk thread starts at a different offset.
local urls = {}
for line in io.lines(os.getenv("URLS_FILE") or "scripts/loadtest/urls.txt") do
  if #line > 0 then urls[#urls + 1] = line end
end
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("offset", counter * 7)
end

local i = 0
function request()
  i = i + 1
  local url = urls[((i + (offset or 0)) % #urls) + 1]
  return wrk.format("GET", "/resolve?url=" .. url)
end
