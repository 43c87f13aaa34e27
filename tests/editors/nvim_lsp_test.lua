-- Neovim's own LSP client (vim.lsp, built in since 0.5) driving `napkin lsp`
-- headless: open a file, see a diagnostic after an edit, hover, jump to a
-- definition in the standard library. Run by nvim_test.sh.
local napkin = os.getenv("NAPKIN")
local file = os.getenv("NAPKIN_FILE")
local std_dir = os.getenv("NAPKIN_STD_DIR")
local failures = 0

local function check(cond, what)
  io.stdout:write((cond and "ok   " or "FAIL ") .. what .. "\n")
  if not cond then failures = failures + 1 end
end

local function finish()
  io.stdout:write(failures == 0 and "all passed\n" or (failures .. " failed\n"))
  io.stdout:flush()
  vim.cmd(failures == 0 and "qall!" or "cquit!")
end

local function cursor_on(pattern, offset)
  local lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  for i, line in ipairs(lines) do
    local col = line:find(pattern, 1, true)
    if col then
      vim.api.nvim_win_set_cursor(0, { i, col - 1 + (offset or 0) })
      return i
    end
  end
  error("no line holds " .. pattern)
end

local ok, err = pcall(function()
  vim.cmd("edit " .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  local published = 0
  local ready = false
  local id = vim.lsp.start_client({
    name = "napkin",
    cmd = { napkin, "lsp", "--std-dir", std_dir },
    root_dir = vim.fn.fnamemodify(file, ":h"),
    flags = { debounce_text_changes = 20 },
    on_init = function() ready = true end,
    handlers = {
      ["textDocument/publishDiagnostics"] = function(e, result, ctx, config)
        published = published + 1
        return vim.lsp.diagnostic.on_publish_diagnostics(e, result, ctx, config)
      end,
    },
  })
  check(id ~= nil, "vim.lsp.start_client starts `napkin lsp`")
  vim.lsp.buf_attach_client(buf, id)
  check(vim.wait(10000, function() return ready and published >= 1 end, 10), "initialized; the file opened, diagnostics published")
  check(#vim.diagnostic.get(buf) == 0, "exercise 1 has no diagnostics")
  local client = vim.lsp.get_client_by_id(id)

  -- An edit: a line whose error stands after ≈, · and µ (several bytes, one UTF-16 unit each).
  local line = 'let broken = if "≈·µ" == "x" then 1 else nope_nope'
  vim.api.nvim_buf_set_lines(buf, -1, -1, false, { line })
  local last = vim.api.nvim_buf_line_count(buf) - 1
  local got = vim.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end, 10)
  local diags = vim.diagnostic.get(buf)
  check(got and #diags == 1, "after the edit: one diagnostic")
  local d = diags[1] or {}
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
  -- Neovim turns the UTF-16 column back into bytes: where `nope_nope` starts in the line's bytes.
  check(d.lnum == last and d.col == line:find("nope_nope", 1, true) - 1 and code == "E0300",
        string.format("E0300 at the edited line %d, byte column %d (got %s:%s %s)", last, line:find("nope_nope", 1, true) - 1,
          tostring(d.lnum), tostring(d.col), tostring(code)))

  -- Hover on drill.d_model.
  cursor_on("drill.d_model", 6)
  local r = client.request_sync("textDocument/hover", vim.lsp.util.make_position_params(), 5000, buf)
  local value = r and r.result and r.result.contents and r.result.contents.value or ""
  check(value:find("6,144", 1, true) ~= nil, "hover on drill.d_model shows 6,144")

  -- Go to definition: `transformer` opens std/transformer at its declaration.
  cursor_on("extends transformer", 9)
  r = client.request_sync("textDocument/definition", vim.lsp.util.make_position_params(), 5000, buf)
  local loc = r and r.result
  check(loc ~= nil and loc.uri ~= nil, "definition answers a location")
  if loc and loc.uri then
    vim.lsp.util.jump_to_location(loc, "utf-16")
    local name = vim.api.nvim_buf_get_name(0)
    local row = vim.api.nvim_win_get_cursor(0)[1]
    check(name:sub(-#"transformer.napkin") == "transformer.napkin" and name:sub(1, #std_dir) == std_dir,
          "the jump opens the std folder's transformer.napkin (" .. name .. ")")
    check(vim.api.nvim_get_current_line():find("^model transformer") ~= nil and row == 35,
          "at line 35, `model transformer {` (stdlib/transformer.napkin:35)")
  end
  vim.lsp.stop_client(id)
end)
if not ok then check(false, "the test ran to its end: " .. tostring(err)) end
finish()
