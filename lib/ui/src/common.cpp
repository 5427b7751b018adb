// common.cpp — colours and small widgets every view shares.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "imgui_internal.h"
#include "occ/format.hpp"
#include "occ/io/binding.hpp"
#include "views.hpp"

namespace occ::ui {

ImU32 block_color(int block, float alpha) {
    // Tableau 10 (categorical, distinguishable in both themes); blocks beyond 10 reuse colours,
    // which is fine because neighbours always differ.
    static const ImU32 palette[] = {IM_COL32(78, 121, 167, 255),  IM_COL32(242, 142, 43, 255),  IM_COL32(89, 161, 79, 255),
                                    IM_COL32(225, 87, 89, 255),   IM_COL32(118, 183, 178, 255), IM_COL32(237, 201, 72, 255),
                                    IM_COL32(176, 122, 161, 255), IM_COL32(255, 157, 167, 255), IM_COL32(156, 117, 95, 255),
                                    IM_COL32(186, 176, 172, 255)};
    ImVec4 c = ImGui::ColorConvertU32ToFloat4(palette[static_cast<unsigned>(block) % 10u]);
    c.w *= alpha;
    return ImGui::ColorConvertFloat4ToU32(c);
}

namespace {
// Each limiter role's colour (occ/limiter.hpp: a role is the same resource on either vendor, so a
// colour means the same on both vendors' pages), in LimiterRole's order. `precedence`: which colour
// a mask of several limiters shows, the lowest number among them: the registers and the memory a
// kernel change moves first.
struct RoleColor {
    LimiterRole role;  // checked against the enum's order below
    float r, g, b;
    int precedence;
};
constexpr RoleColor kRoleColors[] = {
    {LimiterRole::warps, 0.31f, 0.55f, 0.85f, 3},         {LimiterRole::registers, 0.95f, 0.55f, 0.17f, 0},
    {LimiterRole::shared_memory, 0.35f, 0.70f, 0.31f, 2}, {LimiterRole::blocks, 0.69f, 0.48f, 0.75f, 4},
    {LimiterRole::barriers, 0.88f, 0.34f, 0.35f, 5},      {LimiterRole::virtual_resources, 0.80f, 0.70f, 0.20f, 6},
    {LimiterRole::tmem, 0.20f, 0.72f, 0.72f, 7},          {LimiterRole::scalar_registers, 0.85f, 0.45f, 0.70f, 1},
};
constexpr bool roles_in_order() {
    for (std::size_t i = 0; i < std::size(kRoleColors); ++i)
        if (static_cast<std::size_t>(kRoleColors[i].role) != i) return false;
    return static_cast<std::size_t>(LimiterRole::scalar_registers) + 1 == std::size(kRoleColors);
}
static_assert(roles_in_order(), "kRoleColors: one colour per LimiterRole, in the enum's order");
const RoleColor& role_color(LimiterRole r) { return kRoleColors[static_cast<std::size_t>(r)]; }

ImU32 to_u32(const LimiterKey* pick, float alpha) {
    ImVec4 c(0.55f, 0.55f, 0.6f, 1);  // no limiter (or an impossible launch)
    if (pick) c = ImVec4(role_color(pick->role).r, role_color(pick->role).g, role_color(pick->role).b, 1);
    c.w *= alpha;
    return ImGui::ColorConvertFloat4ToU32(c);
}
}  // namespace

ImU32 limiter_color(const LimiterKey& e, float alpha) { return to_u32(&e, alpha); }

const LimiterKey* first_limiter(const LimiterKey* a, const LimiterKey* b) {
    if (!a) return b;
    if (!b) return a;
    return role_color(b->role).precedence < role_color(a->role).precedence ? b : a;
}

ImU32 mask_color(const LimiterKey* pick, float alpha) { return to_u32(pick, alpha); }

ImU32 limiter_color(unsigned bits, float alpha) { return limiter_mask_color(kLimiters, bits, alpha); }

ImU32 rows_color(const std::vector<io::TableRow>& rows, float alpha) {
    const LimiterKey* pick = nullptr;
    for (const io::TableRow& row : rows)
        if (row.limiter && row.hit) pick = first_limiter(pick, row.limiter);
    return to_u32(pick, alpha);
}

void input_row(const char* label, const char* tip) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(label);
    item_tooltip(tip);
    ImGui::TableSetColumnIndex(1);
    ImGui::SetNextItemWidth(-FLT_MIN);
}

float widest_word(std::string_view t) {
    float w = 0;
    for (std::size_t b = 0, e; b < t.size(); b = e + 1) {
        e = std::min(t.find(' ', b), t.size());
        w = std::max(w, ImGui::CalcTextSize(t.data() + b, t.data() + e).x);
    }
    return w;
}

void text_wrapped(std::string_view text) {
    const float width = std::max(ImGui::GetContentRegionAvail().x, em(2));
    const float blank = ImGui::CalcTextSize(" ").x;
    std::size_t line = 0, end = 0;  // the line drawn next is text[line, end)
    float x = 0;
    ImGui::BeginGroup();  // one item, so the caller's tooltip covers every line
    while (end < text.size()) {
        std::size_t w = end;
        while (w < text.size() && text[w] == ' ') ++w;
        if (end == line) line = w;  // nothing pending: the line starts at this word
        std::size_t e = w;
        while (e < text.size() && text[e] != ' ') ++e;
        const float ww = ImGui::CalcTextSize(text.data() + w, text.data() + e).x;
        if (ww > width) {  // a word wider than the column: ImGui cuts it where it must (it breaks within too-long words)
            if (end > line) ImGui::TextUnformatted(text.data() + line, text.data() + end);
            ImGui::PushTextWrapPos(0);
            ImGui::TextUnformatted(text.data() + w, text.data() + e);
            ImGui::PopTextWrapPos();
            line = end = e;
            x = 0;
            continue;
        }
        if (end > line && x + blank * static_cast<float>(w - end) + ww > width) {  // this word starts the next line
            ImGui::TextUnformatted(text.data() + line, text.data() + end);
            line = w;
            x = 0;
        } else if (end > line) {
            x += blank * static_cast<float>(w - end);
        }
        x += ww;
        end = e;
    }
    if (end > line || text.empty()) ImGui::TextUnformatted(text.data() + line, text.data() + end);
    ImGui::EndGroup();
}

bool reveal_header(AppState& s, AppState::Reveal which, const char* label) {
    const bool reveal = s.reveal == which;
    const float y = ImGui::GetCursorPosY();  // in the tab's content, whatever its scroll
    if (reveal) ImGui::SetNextItemOpen(true);
    // Where the label does not fit (a phone), its words before the parenthesis; the same ID.
    const std::string_view full(label), brief = full.substr(0, full.find(" ("));
    const bool fits = ImGui::CalcTextSize(label).x + em(2) + 2 * ImGui::GetStyle().FramePadding.x <= ImGui::GetContentRegionAvail().x;
    const bool open = ImGui::CollapsingHeader((std::string(fits ? full : brief) + "###" + std::string(brief)).c_str());
    if (reveal) {
        ImGui::SetScrollHereY(0.0f);
        s.reveal_steady = y == s.reveal_y ? s.reveal_steady + 1 : 0;
        s.reveal_y = y;
    }
    return open;
}

void item_tooltip(const char* text) {
    if (!ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) return;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(em(28));
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

void section(const char* title) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextUnformatted(title);
    ImGui::PopStyleColor();
    ImGui::Separator();
}

namespace {
std::vector<ImGuiID> g_panels;  // the open panels' keys in their parent's state storage
}  // namespace

bool begin_panel(const char* id, ImVec2 size, bool scroll) {
    const ImGuiID key = ImGui::GetID(id);
    g_panels.push_back(key);
    if (size.y <= 0) size.y = std::max(em(2), ImGui::GetStateStorage()->GetFloat(key, em(10)));
    ImGuiWindowFlags f = ImGuiWindowFlags_NavFlattened;  // Tab and arrows move across panels
    if (!scroll) f |= ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
    return ImGui::BeginChild(id, size, true, f);
}

void end_panel() {
    const ImGuiWindow* w = ImGui::GetCurrentWindow();
    const float need = w->DC.CursorMaxPos.y - w->Pos.y + w->Scroll.y + w->WindowPadding.y;
    const bool drawn = !w->SkipItems;  // a panel scrolled out of view draws nothing to measure
    ImGui::EndChild();
    if (drawn) ImGui::GetStateStorage()->SetFloat(g_panels.back(), std::ceil(need));
    g_panels.pop_back();
}

float panel_height(const char* id) { return ImGui::GetStateStorage()->GetFloat(ImGui::GetID(id), 0); }

void same_line_if_fits(float width) {
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
}

namespace {
int resize_string(ImGuiInputTextCallbackData* data) {
    if (data->EventFlag == ImGuiInputTextFlags_CallbackResize) {
        auto* text = static_cast<std::string*>(data->UserData);
        text->resize(static_cast<std::size_t>(data->BufTextLen));
        data->Buf = text->data();
    }
    return 0;
}
}  // namespace

bool input_text_multiline(const char* id, std::string& text, ImVec2 size) {
    return ImGui::InputTextMultiline(id, text.data(), text.capacity() + 1, size, ImGuiInputTextFlags_CallbackResize, resize_string, &text);
}

bool input_text_hint(const char* id, const char* hint, std::string& text, int flags) {
    return ImGui::InputTextWithHint(id, hint, text.data(), text.capacity() + 1, flags | ImGuiInputTextFlags_CallbackResize, resize_string,
                                    &text);
}

namespace {
// What a typed field holds between frames: the text as typed, and the refusal it earned.
struct Typed {
    std::string text;
    std::string error;
    std::int64_t before = 0;   // the value when editing began (what a refusal keeps)
    std::int64_t refused = 0;  // the value the field held when it refused (a change from outside clears the refusal)
};
Typed& typed_field(ImGuiID id) {
    static std::vector<std::pair<ImGuiID, Typed>> fields;  // a few dozen: a search is as quick as a hash
    for (auto& [key, t] : fields)
        if (key == id) return t;
    return fields.emplace_back(id, Typed{}).second;
}
}  // namespace

bool typed_input(const char* id, const TypedField& f, std::int64_t& v) {
    Typed& t = typed_field(ImGui::GetID(id));
    const ImGuiStyle& st = ImGui::GetStyle();
    const bool size = f.spec->type == io::FieldType::size;
    const std::string unit = size && f.width <= 0 ? (v >= 1024 ? format_bytes(v) : std::string("bytes"))
                                                  : std::string(f.unit ? f.unit : "");
    if (!t.error.empty() && v != t.refused) t.error.clear();  // a new scenario, a step, an undo
    const bool editing = ImGui::GetActiveID() == ImGui::GetID(id);
    if (t.error.empty() && !editing) t.text = std::to_string(v);
    // The unit sits in a column of em(5.5) so the rows line up; a long value (a 15-digit grid) takes
    // the buttons' room first, then the column's beyond the unit's own width.
    const float unit_tight = unit.empty() ? 0.0f : ImGui::CalcTextSize(unit.c_str()).x + st.ItemSpacing.x;
    const float unit_full = unit.empty() ? 0.0f : std::max(em(5.5f), unit_tight);
    const float buttons_w = 2 * (ImGui::GetFrameHeight() + st.ItemInnerSpacing.x);
    const float text_w = ImGui::CalcTextSize(t.text.c_str()).x + 2 * st.FramePadding.x;
    const float avail = ImGui::GetContentRegionAvail().x;
    bool buttons = f.step > 0 && avail >= em(12) && avail - unit_full - buttons_w >= text_w;
    const float unit_w = buttons || avail - unit_full >= text_w ? unit_full : unit_tight;
    if (f.width > 0) {
        buttons = f.step > 0 && f.width - buttons_w >= text_w;
        ImGui::SetNextItemWidth(std::max(em(2), f.width - (buttons ? buttons_w : 0.0f)));
    } else {
        ImGui::SetNextItemWidth(std::max(em(2), avail - unit_w - (buttons ? buttons_w : 0.0f)));
    }
    bool changed = false;
    auto accept = [&](std::int64_t x) {
        if (x != v) changed = true;
        v = x;
        t.error.clear();
    };
    auto refuse = [&](std::string why) {
        if (v != t.before) changed = true;
        v = t.before;
        t.error = std::move(why);
        t.refused = v;
    };
    // Selected whole on a click or tap, as ImGui's own number fields are: what is typed replaces it.
    if (input_text_hint(id, "", t.text, ImGuiInputTextFlags_AutoSelectAll)) {
        const Result<std::int64_t> r = io::read_typed(*f.spec, t.text);
        if (!r) refuse(r.error);
        else if (*r < f.lo || *r > f.hi) {
            std::string why = f.refuse ? f.refuse(f.ctx, *r) : std::string();
            if (why.empty())
                why = std::string(f.spec->key) + ": must be " + std::to_string(f.lo) + ".." + std::to_string(f.hi) + ", got " +
                      std::to_string(*r);
            refuse(std::move(why));
        } else if (std::string why = f.check ? f.check(f.ctx, *r) : std::string(); !why.empty()) {
            refuse(std::move(why));
        } else accept(*r);
    }
    if (ImGui::IsItemActivated()) t.before = v;
    if (ImGui::IsItemDeactivated() && t.error.empty()) t.text = std::to_string(v);
    if (buttons) {
        const std::int64_t by = ImGui::GetIO().KeyCtrl && f.fast > 0 ? f.fast : f.step;
        ImGui::PushButtonRepeat(true);
        ImGui::PushID(id);
        ImGui::SameLine(0, st.ItemInnerSpacing.x);
        if (ImGui::Button("-", ImVec2(ImGui::GetFrameHeight(), ImGui::GetFrameHeight()))) accept(std::max(f.lo, v - by));
        ImGui::SameLine(0, st.ItemInnerSpacing.x);
        if (ImGui::Button("+", ImVec2(ImGui::GetFrameHeight(), ImGui::GetFrameHeight()))) accept(std::min(f.hi, v + by));
        ImGui::PopID();
        ImGui::PopButtonRepeat();
        if (changed && t.error.empty()) t.text = std::to_string(v);
    }
    if (!unit.empty()) {
        ImGui::SameLine(0, f.width > 0 ? st.ItemInnerSpacing.x : -1.0f);
        if (f.width > 0) ImGui::TextUnformatted(unit.c_str());  // a label, as ImGui's inputs draw theirs
        else ImGui::TextDisabled("%s", unit.c_str());
    }
    if (!t.error.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, error_color());
        text_wrapped(t.error);
        ImGui::PopStyleColor();
    }
    return changed;
}

bool typed_input(const char* id, const TypedField& f, int& v) {
    std::int64_t x = v;
    const bool changed = typed_input(id, f, x);
    v = static_cast<int>(x);
    return changed;
}

ImU32 accent_color() { return ImGui::GetColorU32(ImGuiCol_PlotHistogram); }
ImU32 error_color() { return IM_COL32(230, 80, 80, 255); }

}  // namespace occ::ui

namespace occ::ui {
void push_big_font() {
    ImFontAtlas* atlas = ImGui::GetIO().Fonts;
    ImGui::PushFont(atlas->Fonts.Size > 1 ? atlas->Fonts[1] : ImGui::GetFont());
}
}  // namespace occ::ui
