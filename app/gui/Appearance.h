// How the app looks: a light or a dark theme, and presentation mode for classrooms (large fonts and
// high contrast everywhere). An Appearance is a value; applyAppearance() makes it the application's:
// palette, style sheet and font, the fonts widgets set for themselves, the editors (KernelEditor) and
// the plots (PlotAppearance.h). Code draws for the light theme; the dark one is derived from it here.
#pragma once

#include <QColor>
#include <QFont>
#include <QPalette>
#include <QString>

class QWidget;

enum class Theme { Light, Dark };

struct Appearance {
    static constexpr double kPresentationScale = 1.6;

    Theme theme = Theme::Light;
    bool presentation = false; // classroom: large fonts and high contrast

    double fontScale() const { return presentation ? kPresentationScale : 1.0; }
    bool highContrast() const { return presentation; }
    bool dark() const { return theme == Theme::Dark; }
    bool operator==(const Appearance&) const = default;
};

// The colours of one appearance, by what they are for.
struct ThemeColors {
    QColor window, text, base, alternateBase, button, highlight, highlightedText, mutedText, link;
    QColor error; // text that says something is wrong
    QColor caretLine, margin, marginText, selection;
};
ThemeColors colorsOf(const Appearance& appearance);
QPalette paletteOf(const Appearance& appearance);

// Colours drawn for the light theme, as an appearance shows them. A background (paper, fills, grid
// lines) keeps its hue and has its lightness turned over in the dark theme: white becomes the dark
// base. A foreground (text, lines, markers) on `background` is turned over too where it is grey, then
// made light or dark enough to read: 4.5:1 in the dark theme, 7:1 in high contrast (WCAG AA, AAA).
// The light theme shows what was drawn.
QColor adaptBackground(const QColor& designed, const Appearance& appearance);
QColor adaptForeground(const QColor& designed, const QColor& background, const Appearance& appearance);
// `colour` with its lightness moved away from `background` until their contrast is at least `ratio`.
QColor withContrast(const QColor& colour, const QColor& background, double ratio);
// WCAG contrast ratio of two colours (alpha ignored): 1 (same) to 21 (black on white).
double contrastRatio(const QColor& a, const QColor& b);

QString themeName(Theme theme); // "light", "dark": the setting's value
Theme themeFromName(const QString& name);

enum class Tone { Normal, Error, Muted };
// Marks a label's text as an error or as muted: the application's style sheet colours it for the theme.
void setTone(QWidget* widget, Tone tone);

// A status line (or a field with a problem) in the colours of a state: drawn for the light theme and
// adapted, like the plots, for the dark one and for high contrast. None removes them.
enum class Banner {
    None,
    Plain,   // the theme's own colours, only the padding
    Notice,  // nothing right or wrong: grey
    Warning, // worth knowing before a run: yellow
    Passed,  // green
    Failed,  // red
    Problem, // a field whose value is wrong: a red frame (no padding)
};
// Colours `widget` as `banner`, with `padding` pixels around a label's text; kept up to date when the
// appearance changes.
void setBanner(QWidget* widget, Banner banner, int padding = 6);

const Appearance& currentAppearance();
// The application's font without presentation's scaling: the size fonts are designed against.
QFont baseFont();
// Fonts a widget set for itself, scaled from the size it was given; widgets with their own scheme
// (editors, plots) are left to it. Idempotent: applying twice does not scale twice.
void scaleOwnFonts(QWidget* root, double scale);
// Makes `appearance` the application's and brings every widget up to date. Windows shown later
// follow it too.
void applyAppearance(const Appearance& appearance);
