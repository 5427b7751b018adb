// layout_check.cpp — the layout self-check: reads the frame just drawn (ImGui's draw lists) back into
// the texts it shows, and reports every text cut by the box it is drawn in and every pair of texts
// drawn over each other. Working from the draw lists catches every text, whoever drew it (widget
// labels, input values, plot ticks drawn with ImDrawList), at no cost to frames nobody checks.
//
// A glyph is a textured quad whose texture coordinates are those of a font glyph; consecutive glyphs
// on one baseline, each where the previous one's advance left the pen, are one text. A glyph is cut
// when ImGui clipped it on the CPU (its texture rectangle is a part of the glyph's) or when its quad
// reaches past the clip rectangle of its draw command. Cuts in the direction a window scrolls are the
// scrolling, not the layout, and are not reported as cut; such a text is "partial" in the texts list
// (ImGui drops the glyphs wholly outside, so what is left is a piece of a word). A text that ends in the font's ellipsis glyph was
// shortened by ImGui (a tab or table header narrower than its label; the app never draws that glyph
// itself): it is reported as cut, with the whole label when a tab or column carries it.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "imgui_internal.h"
#include "views.hpp"

namespace occ::ui {
namespace {

struct GlyphRef {
    const ImFont* font;
    const ImFontGlyph* glyph;
};

std::uint64_t uv_key(float u, float v) {
    std::uint32_t a = 0, b = 0;
    std::memcpy(&a, &u, 4);
    std::memcpy(&b, &v, 4);
    return (std::uint64_t{a} << 32) | b;
}

struct GlyphIndex {
    std::unordered_map<std::uint64_t, GlyphRef> by_min, by_max;  // by (U0,V0) and by (U1,V1)
    std::vector<GlyphRef> all;
    explicit GlyphIndex(const ImFontAtlas* atlas) {
        for (const ImFont* f : atlas->Fonts)
            for (const ImFontGlyph& g : f->Glyphs) {
                if (!g.Visible) continue;
                by_min.emplace(uv_key(g.U0, g.V0), GlyphRef{f, &g});
                by_max.emplace(uv_key(g.U1, g.V1), GlyphRef{f, &g});
                all.push_back({f, &g});
            }
    }
    // The glyph a quad with texture rectangle uv0..uv1 shows (a part of it when clipped).
    const GlyphRef* find(ImVec2 uv0, ImVec2 uv1) const {
        if (auto it = by_min.find(uv_key(uv0.x, uv0.y)); it != by_min.end()) return &it->second;
        if (auto it = by_max.find(uv_key(uv1.x, uv1.y)); it != by_max.end()) return &it->second;
        if (uv0.x >= uv1.x || uv0.y >= uv1.y) return nullptr;  // a solid shape (the white pixel)
        for (const GlyphRef& r : all)
            if (uv0.x >= r.glyph->U0 && uv1.x <= r.glyph->U1 && uv0.y >= r.glyph->V0 && uv1.y <= r.glyph->V1) return &r;
        return nullptr;
    }
};

struct Run {
    const ImGuiWindow* window = nullptr;
    const ImFont* font = nullptr;
    std::string text;
    ImRect box;  // the visible ink
    float pen_y = 0, next_x = 0;
    bool cut = false;
    bool ellipsis = false;  // ends in the font's ellipsis: ImGui shortened the label
    bool partial = false;   // partly scrolled out of view: what is drawn is a piece of it ("U" of a "Use" at the edge)
};

void append_utf8(std::string& s, unsigned c) {
    char buf[5];
    s += ImTextCharToUtf8(buf, c);
}

// A window's name without ImGui's "##id" suffixes and child-window hash ("occ/inputs_panel_1A2B3C4D").
std::string window_id(const ImGuiWindow* w) {
    if (!w) return "?";
    std::string name = w->Name;
    std::string out;
    std::size_t start = 0;
    while (start <= name.size()) {
        std::size_t end = name.find('/', start);
        if (end == std::string::npos) end = name.size();
        std::string part = name.substr(start, end - start);
        if (auto h = part.find("##"); h != std::string::npos) part.erase(h);
        if (auto u = part.rfind('_'); u != std::string::npos && part.size() - u == 9) part.erase(u);
        if (!out.empty()) out += '/';
        out += part;
        start = end + 1;
    }
    return out;
}

io::json rect_json(const ImRect& r) {
    auto round1 = [](float v) { return std::round(v * 10.0f) / 10.0f; };
    return io::json::array({round1(r.Min.x), round1(r.Min.y), round1(r.GetWidth()), round1(r.GetHeight())});
}

io::json run_json(const Run& r) {
    io::json j{{"id", window_id(r.window)}, {"text", r.text}, {"rect", rect_json(r.box)}};
    if (r.partial) j["partial"] = true;
    return j;
}

// Whether the window or one around it scrolls along `axis` (0 = x): its edge then cuts texts only
// until the user scrolls to them.
bool scrolls(const ImGuiWindow* w, int axis) {
    for (; w; w = w->ParentWindow)
        if (axis == 0 ? w->ScrollbarX : w->ScrollbarY) return true;
    return false;
}

// Whether a glyph cut along `axis` is only scrolled out of view: it reaches past the visible area
// of the nearest window (itself or one around it) that scrolls along that axis.
// A multiline text box (ImGui's child named after the box's "##" label; the app's panels have plain
// names) scrolls its lines sideways with the cursor, as an editor does.
bool text_box(const ImGuiWindow* w) {
    const char* leaf = std::strrchr(w->Name, '/');
    return (w->Flags & ImGuiWindowFlags_ChildWindow) && leaf && std::strncmp(leaf + 1, "##", 2) == 0;
}

bool scrolled_out(const ImGuiWindow* w, const ImRect& glyph, int axis) {
    for (; w; w = w->ParentWindow)
        if (axis == 0 ? w->ScrollbarX || text_box(w) : w->ScrollbarY) break;
    if (!w) return false;
    const ImRect& v = w->InnerClipRect;
    return axis == 0 ? glyph.Min.x < v.Min.x || glyph.Max.x > v.Max.x : glyph.Min.y < v.Min.y || glyph.Max.y > v.Max.y;
}

std::vector<Run> read_texts(const ImDrawData* dd) {
    std::vector<Run> runs;
    const ImGuiContext& g = *GImGui;
    const ImFontAtlas* atlas = g.IO.Fonts;
    if (!dd || !dd->Valid || !atlas) return runs;
    const GlyphIndex index(atlas);
    std::unordered_map<const ImDrawList*, const ImGuiWindow*> owner;
    for (const ImGuiWindow* w : g.Windows) owner[w->DrawList] = w;

    for (int l = 0; l < dd->CmdListsCount; ++l) {
        const ImDrawList* dl = dd->CmdLists[l];
        const auto o = owner.find(dl);
        const ImGuiWindow* win = o == owner.end() ? nullptr : o->second;
        if (win && (win->Flags & ImGuiWindowFlags_Tooltip)) continue;  // drawn over everything on purpose
        Run cur;
        auto flush = [&] {
            if (!cur.text.empty()) runs.push_back(cur);
            cur = Run{};
        };
        for (const ImDrawCmd& cmd : dl->CmdBuffer) {
            if (cmd.UserCallback || cmd.TextureId != atlas->TexID) {
                flush();
                continue;
            }
            const ImRect clip(cmd.ClipRect.x, cmd.ClipRect.y, cmd.ClipRect.z, cmd.ClipRect.w);
            const ImDrawIdx* idx = dl->IdxBuffer.Data + cmd.IdxOffset;
            const ImDrawVert* vtx = dl->VtxBuffer.Data + cmd.VtxOffset;
            for (unsigned i = 0; i + 3 <= cmd.ElemCount;) {
                const unsigned a = idx[i];
                const bool quad = i + 6 <= cmd.ElemCount && idx[i + 1] == a + 1 && idx[i + 2] == a + 2 && idx[i + 3] == a &&
                                  idx[i + 4] == a + 2 && idx[i + 5] == a + 3;
                if (!quad) {
                    i += 3;
                    continue;
                }
                i += 6;
                const ImDrawVert& v0 = vtx[a];
                const ImDrawVert& v2 = vtx[a + 2];
                const GlyphRef* ref = index.find(v0.uv, v2.uv);
                if (!ref) continue;
                const ImFontGlyph& gl = *ref->glyph;
                // Which sides the CPU clipped: a texture coordinate that is not the glyph's.
                const bool cut_l = v0.uv.x != gl.U0, cut_t = v0.uv.y != gl.V0, cut_r = v2.uv.x != gl.U1, cut_b = v2.uv.y != gl.V1;
                const float pen_x = cut_l ? v2.pos.x - gl.X1 : v0.pos.x - gl.X0;
                const float pen_y = cut_t ? v2.pos.y - gl.Y1 : v0.pos.y - gl.Y0;
                ImRect q(v0.pos, v2.pos);
                // Past the draw command's clip rectangle (the GPU clips it).
                const bool gpu_x = q.Min.x < clip.Min.x - 1.5f || q.Max.x > clip.Max.x + 1.5f;
                const bool gpu_y = q.Min.y < clip.Min.y - 1.5f || q.Max.y > clip.Max.y + 1.5f;
                const ImRect whole(pen_x + gl.X0, pen_y + gl.Y0, pen_x + gl.X1, pen_y + gl.Y1);
                const bool cut_x = cut_l || cut_r || gpu_x, cut_y = cut_t || cut_b || gpu_y;
                const bool out_x = cut_x && scrolled_out(win, whole, 0), out_y = cut_y && scrolled_out(win, whole, 1);
                const bool cut = (cut_x && !out_x) || (cut_y && !out_y);
                q.ClipWith(clip);
                const ImFontGlyph* sp = ref->font->FindGlyphNoFallback(' ');
                const float space = sp ? sp->AdvanceX : ref->font->FontSize * 0.3f;
                const bool same = !cur.text.empty() && cur.font == ref->font && std::fabs(pen_y - cur.pen_y) < 0.5f &&
                                  pen_x > cur.next_x - 1.0f && pen_x < cur.next_x + 1.6f * space;
                if (!same) {
                    flush();
                    cur.window = win;
                    cur.font = ref->font;
                    cur.pen_y = pen_y;
                    cur.box = q;
                } else {
                    if (pen_x > cur.next_x + 0.3f * space) cur.text += ' ';
                    cur.box.Add(q);
                }
                append_utf8(cur.text, gl.Codepoint);
                cur.next_x = pen_x + gl.AdvanceX;
                cur.cut |= cut;
                cur.partial |= out_x || out_y;
                cur.ellipsis |= gl.Codepoint == static_cast<unsigned>(ref->font->EllipsisChar);
            }
        }
        flush();
    }
    return runs;
}

bool overlap(const ImRect& a, const ImRect& b) {
    const float w = std::min(a.Max.x, b.Max.x) - std::max(a.Min.x, b.Min.x);
    const float h = std::min(a.Max.y, b.Max.y) - std::max(a.Min.y, b.Min.y);
    return w > 0.5f && h > 0.5f;
}

// The whole label of a text ImGui shortened: the tab or table column of this frame whose label starts
// with what was drawn before the ellipsis ("" when none does).
std::string full_label(const Run& r) {
    ImGuiContext& g = *GImGui;
    std::string drawn = r.text;
    char buf[5];
    if (const std::string e = ImTextCharToUtf8(buf, static_cast<unsigned>(r.font->EllipsisChar)); drawn.size() >= e.size())
        drawn.erase(drawn.rfind(e));
    while (!drawn.empty() && drawn.back() == ' ') drawn.pop_back();
    auto match = [&](const char* label) {
        const std::string name(label, ImGui::FindRenderedTextEnd(label));
        return name.size() > drawn.size() && name.compare(0, drawn.size(), drawn) == 0 ? name : std::string();
    };
    for (int i = 0; i < g.TabBars.GetMapSize(); ++i)
        if (const ImGuiTabBar* bar = g.TabBars.TryGetMapData(i))
            for (const ImGuiTabItem& tab : bar->Tabs)
                if (tab.LastFrameVisible >= g.FrameCount - 1)
                    if (std::string name = match(bar->GetTabName(&tab)); !name.empty()) return name;
    for (int i = 0; i < g.Tables.GetMapSize(); ++i)
        if (ImGuiTable* t = g.Tables.TryGetMapData(i); t && t->LastFrameActive >= g.FrameCount - 1)
            for (int c = 0; c < t->ColumnsCount; ++c)
                if (const char* label = ImGui::TableGetColumnName(t, c))
                    if (std::string name = match(label); !name.empty()) return name;
    return {};
}

// Texts in a popup or menu are drawn over the window under it on purpose.
const ImGuiWindow* root(const Run& r) { return r.window ? r.window->RootWindow : nullptr; }

// Panels (child windows) that reach past the window they sit in, where it cannot scroll to them:
// their texts are cut or not drawn at all.
void overflowing_panels(io::json& clipped) {
    for (const ImGuiWindow* w : GImGui->Windows) {
        if (!w->WasActive || !(w->Flags & ImGuiWindowFlags_ChildWindow) || (w->Flags & (ImGuiWindowFlags_Popup | ImGuiWindowFlags_Tooltip)))
            continue;
        const ImGuiWindow* p = w->ParentWindow;
        if (!p) continue;
        const ImRect r = w->Rect(), in = p->InnerRect;
        const bool cut_x = !scrolls(p, 0) && (r.Min.x < in.Min.x - 1 || r.Max.x > in.Max.x + 1);
        const bool cut_y = !scrolls(p, 1) && (r.Min.y < in.Min.y - 1 || r.Max.y > in.Max.y + 1);
        if (cut_x || cut_y)
            clipped.push_back({{"id", window_id(w)}, {"text", "(panel past the edge of " + window_id(p) + ")"}, {"rect", rect_json(r)}});
    }
}

}  // namespace

std::vector<std::string> drawn_texts() {
    std::vector<std::string> out;
    if (!GImGui) return out;
    for (const Run& r : read_texts(ImGui::GetDrawData())) out.push_back(r.text);
    return out;
}

io::json check_layout() {
    io::json clipped = io::json::array(), overlaps = io::json::array();
    if (!GImGui) return {{"clipped", clipped}, {"overlaps", overlaps}};
    const std::vector<Run> runs = read_texts(ImGui::GetDrawData());
    for (const Run& r : runs) {
        if (!r.cut && !r.ellipsis) continue;
        io::json e = run_json(r);
        if (r.ellipsis) e["label"] = full_label(r);
        clipped.push_back(std::move(e));
    }
    overflowing_panels(clipped);
    for (std::size_t i = 0; i < runs.size(); ++i)
        for (std::size_t j = i + 1; j < runs.size(); ++j)
            if (root(runs[i]) == root(runs[j]) && overlap(runs[i].box, runs[j].box))
                overlaps.push_back({{"a", run_json(runs[i])}, {"b", run_json(runs[j])}});
    io::json texts = io::json::array();  // every text, where it is (tests click what they find here)
    for (const Run& r : runs) texts.push_back(run_json(r));
    return {{"clipped", clipped}, {"overlaps", overlaps}, {"texts", texts}};
}

}  // namespace occ::ui
