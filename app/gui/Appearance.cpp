#include "Appearance.h"

#include "KernelEditor.h"

#include <QApplication>
#include <QStyle>
#include <QWidget>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>
#include <utility>
#include <vector>

namespace {

constexpr const char* kTone = "kpTone";
constexpr const char* kBanner = "kpBanner";
constexpr const char* kBannerPadding = "kpBannerPadding";
constexpr const char* kDesignFont = "kpDesignFont";
constexpr const char* kAppliedFont = "kpAppliedFont";

// What the application looked like before the first applyAppearance(): the light theme's palette is the
// desktop's own, and fonts are scaled from the desktop's size.
struct Initial {
    QFont font;
    QPalette palette;
    QString style;
    std::vector<std::pair<const char*, QFont>> classFonts;
};

// The classes the desktop may give fonts of their own (menus, tool tips, item views...): the names Qt
// files the platform theme's fonts under.
constexpr const char* kFontClasses[] = {"QMenu",
                                        "QMenuBar",
                                        "QMenuItem",
                                        "QMessageBox",
                                        "QLabel",
                                        "QTipLabel",
                                        "QStatusBar",
                                        "QMdiSubWindowTitleBar",
                                        "QDockWidgetTitle",
                                        "QPushButton",
                                        "QCheckBox",
                                        "QRadioButton",
                                        "QToolButton",
                                        "QAbstractItemView",
                                        "QListViewFont",
                                        "QHeaderViewFont",
                                        "QListBox",
                                        "QComboMenuItem",
                                        "QComboLineEdit",
                                        "QSmallFont",
                                        "QMiniFont",
                                        "QHeaderView",
                                        "QTabBar",
                                        "QGroupBox"};

Initial& initial() {
    static Initial saved = [] {
        Initial i{QApplication::font(), QApplication::palette(), QString(), {}};
        if (const QStyle* style = QApplication::style()) i.style = style->name();
        for (const char* name : kFontClasses)
            i.classFonts.emplace_back(name, QApplication::font(name));
        return i;
    }();
    return saved;
}

Appearance& current() {
    static Appearance appearance;
    return appearance;
}

double relativeLuminance(const QColor& colour) {
    const auto channel = [](double c) {
        return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(colour.redF()) + 0.7152 * channel(colour.greenF()) +
           0.0722 * channel(colour.blueF());
}

bool isGrey(const QColor& colour) {
    return colour.hslSaturation() < 40 || colour.lightness() < 12 || colour.lightness() > 245;
}

QColor withLightness(const QColor& colour, int lightness) {
    QColor result =
        QColor::fromHsl(colour.hslHue(), colour.hslSaturation(), std::clamp(lightness, 0, 255)).toRgb();
    result.setAlpha(colour.alpha());
    return result;
}

// The colour with its lightness turned over for the (dark) appearance: white becomes its base, black its
// text.
QColor turnedOver(const QColor& colour, const Appearance& appearance) {
    const ThemeColors c = colorsOf(appearance);
    const int darkest = c.base.lightness(), lightest = c.text.lightness();
    return withLightness(colour, darkest + (255 - colour.lightness()) * (lightest - darkest) / 255);
}

void applyTone(QWidget* widget, Tone tone) {
    const ThemeColors colours = colorsOf(currentAppearance());
    QPalette palette = widget->palette();
    const QColor text = tone == Tone::Error   ? colours.error
                        : tone == Tone::Muted ? colours.mutedText
                                              : QApplication::palette().color(QPalette::WindowText);
    palette.setColor(QPalette::WindowText, text);
    palette.setColor(QPalette::Text, text);
    widget->setPalette(palette);
}

// Background and text as drawn for the light theme.
std::pair<QColor, QColor> bannerColours(Banner banner) {
    switch (banner) {
    case Banner::Warning:
        return {QColor(0xff, 0xf4, 0xce), QColor(0x3b, 0x2f, 0x00)};
    case Banner::Passed:
        return {QColor(0xe6, 0xf4, 0xea), QColor(0x0d, 0x65, 0x2d)};
    case Banner::Failed:
        return {QColor(0xfc, 0xe8, 0xe6), QColor(0xa5, 0x0e, 0x0e)};
    case Banner::Problem:
        return {QColor(0xfd, 0xec, 0xec), QColor(0x3b, 0x00, 0x00)};
    default:
        return {QColor(0xf1, 0xf3, 0xf4), QColor(0x3c, 0x40, 0x43)};
    }
}

QString bannerStyle(Banner banner, int padding, const Appearance& appearance) {
    if (banner == Banner::None) return {};
    if (banner == Banner::Plain) return QStringLiteral("QLabel { padding: %1px; }").arg(padding);
    const auto [designedBackground, designedText] = bannerColours(banner);
    const QColor background = adaptBackground(designedBackground, appearance);
    const QColor text = adaptForeground(designedText, background, appearance);
    if (banner == Banner::Problem) {
        const QColor frame = adaptForeground(QColor(0xd0, 0x21, 0x21), background, appearance);
        return QStringLiteral("border: 1px solid %1; background: %2; color: %3;")
            .arg(frame.name(), background.name(), text.name());
    }
    return QStringLiteral("QLabel { background: %1; color: %2; padding: %3px; }")
        .arg(background.name(), text.name())
        .arg(padding);
}

void applyBanner(QWidget* widget, const Appearance& appearance) {
    const auto banner = static_cast<Banner>(widget->property(kBanner).toInt());
    const QString style = bannerStyle(banner, widget->property(kBannerPadding).toInt(), appearance);
    if (widget->styleSheet() != style) widget->setStyleSheet(style);
}

QFont scaledFont(const QFont& designed, double scale) {
    QFont font = designed;
    if (designed.pointSizeF() > 0)
        font.setPointSizeF(designed.pointSizeF() * scale);
    else if (designed.pixelSize() > 0)
        font.setPixelSize(std::max(1, static_cast<int>(std::lround(designed.pixelSize() * scale))));
    return font;
}

bool drawsItsOwnFonts(const QWidget* widget) {
    return qobject_cast<const QsciScintilla*>(widget) || qobject_cast<const QCustomPlot*>(widget);
}

void scaleOwnFont(QWidget* widget, double scale) {
    if (!widget->testAttribute(Qt::WA_SetFont) || drawsItsOwnFonts(widget)) return;
    const QFont now = widget->font();
    const QVariant applied = widget->property(kAppliedFont);
    QFont designed = now;
    if (applied.isValid() && applied.value<QFont>() == now) {
        designed = widget->property(kDesignFont).value<QFont>();
    } else if (scale != 1.0 && now.pointSizeF() == QApplication::font().pointSizeF()) {
        // Set while presentation was on, from the application's font: designed at the base size.
        designed.setPointSizeF(baseFont().pointSizeF());
    }
    const QFont font = scaledFont(designed, scale);
    widget->setProperty(kDesignFont, designed);
    widget->setProperty(kAppliedFont, font);
    if (font != now) widget->setFont(font);
}

void refresh(QWidget* window, const Appearance& appearance) {
    scaleOwnFonts(window, appearance.fontScale());
    for (auto* editor : window->findChildren<KernelEditor*>())
        editor->applyAppearance(appearance);
    QList<QWidget*> widgets = window->findChildren<QWidget*>();
    widgets.prepend(window);
    for (QWidget* widget : widgets) {
        if (const QVariant tone = widget->property(kTone); tone.isValid())
            applyTone(widget, static_cast<Tone>(tone.toInt()));
        if (widget->property(kBanner).isValid()) applyBanner(widget, appearance);
    }
    for (auto* plot : window->findChildren<QCustomPlot*>())
        plot->replot(QCustomPlot::rpQueuedReplot);
}

// Widgets made after the appearance was applied (a dialog, a result's table) get its fonts when they
// are first shown.
class NewWidgetFonts : public QObject {
public:
    using QObject::QObject;
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Polish && currentAppearance().fontScale() != 1.0)
            if (auto* widget = qobject_cast<QWidget*>(watched))
                scaleOwnFont(widget, currentAppearance().fontScale());
        return false;
    }
};

} // namespace

ThemeColors colorsOf(const Appearance& appearance) {
    if (appearance.dark() && appearance.highContrast())
        return {.window = QColor(0, 0, 0),
                .text = QColor(255, 255, 255),
                .base = QColor(0, 0, 0),
                .alternateBase = QColor(0x16, 0x16, 0x16),
                .button = QColor(0x12, 0x12, 0x12),
                .highlight = QColor(0xff, 0xd5, 0x4f),
                .highlightedText = QColor(0, 0, 0),
                .mutedText = QColor(0xd8, 0xd8, 0xd8),
                .link = QColor(0x9e, 0xcb, 0xff),
                .error = QColor(0xff, 0xa0, 0xa0),
                .caretLine = QColor(0x1c, 0x1c, 0x1c),
                .margin = QColor(0, 0, 0),
                .marginText = QColor(0xf0, 0xf0, 0xf0),
                .selection = QColor(0x1d, 0x4f, 0x91)};
    if (appearance.dark())
        return {.window = QColor(0x2d, 0x2d, 0x30),
                .text = QColor(0xe2, 0xe2, 0xe2),
                .base = QColor(0x1e, 0x1e, 0x1e),
                .alternateBase = QColor(0x26, 0x26, 0x28),
                .button = QColor(0x38, 0x38, 0x3b),
                .highlight = QColor(0x2f, 0x6f, 0xb8),
                .highlightedText = QColor(0xff, 0xff, 0xff),
                .mutedText = QColor(0xa8, 0xa8, 0xa8),
                .link = QColor(0x80, 0xb4, 0xff),
                .error = QColor(0xff, 0x8a, 0x80),
                .caretLine = QColor(0x2a, 0x2d, 0x33),
                .margin = QColor(0x25, 0x25, 0x26),
                .marginText = QColor(0x8e, 0x8e, 0x8e),
                .selection = QColor(0x26, 0x4f, 0x78)};
    if (appearance.highContrast())
        return {.window = QColor(0xff, 0xff, 0xff),
                .text = QColor(0, 0, 0),
                .base = QColor(0xff, 0xff, 0xff),
                .alternateBase = QColor(0xf0, 0xf0, 0xf0),
                .button = QColor(0xf4, 0xf4, 0xf4),
                .highlight = QColor(0x00, 0x3c, 0xb4),
                .highlightedText = QColor(0xff, 0xff, 0xff),
                .mutedText = QColor(0x30, 0x30, 0x30),
                .link = QColor(0x00, 0x00, 0xc0),
                .error = QColor(0x8b, 0x00, 0x00),
                .caretLine = QColor(0xe8, 0xf0, 0xff),
                .margin = QColor(0xff, 0xff, 0xff),
                .marginText = QColor(0, 0, 0),
                .selection = QColor(0xa8, 0xc8, 0xff)};
    return {.window = QColor(0xef, 0xef, 0xef),
            .text = QColor(0, 0, 0),
            .base = QColor(0xff, 0xff, 0xff),
            .alternateBase = QColor(0xf7, 0xf7, 0xf7),
            .button = QColor(0xef, 0xef, 0xef),
            .highlight = QColor(0x30, 0x8c, 0xc6),
            .highlightedText = QColor(0xff, 0xff, 0xff),
            .mutedText = QColor(0x5f, 0x63, 0x68),
            .link = QColor(0x00, 0x00, 0xff),
            .error = QColor(0xb0, 0x00, 0x20),
            .caretLine = QColor(0xf4, 0xf7, 0xfb),
            .margin = QColor(0xf0, 0xf0, 0xf0),
            .marginText = QColor(0x6e, 0x6e, 0x6e),
            .selection = QColor(0xc8, 0xdc, 0xf0)};
}

QPalette paletteOf(const Appearance& appearance) {
    // The plain light theme is the desktop's own palette.
    if (!appearance.dark() && !appearance.highContrast()) return initial().palette;
    const ThemeColors c = colorsOf(appearance);
    QPalette palette(c.text, c.button, c.button.lighter(130), c.button.darker(160), c.button.darker(120),
                     c.text, appearance.dark() ? QColor(0, 0, 0) : QColor(0xff, 0xff, 0xff), c.base,
                     c.window);
    palette.setColor(QPalette::AlternateBase, c.alternateBase);
    palette.setColor(QPalette::ButtonText, c.text);
    palette.setColor(QPalette::Highlight, c.highlight);
    palette.setColor(QPalette::HighlightedText, c.highlightedText);
    palette.setColor(QPalette::Link, c.link);
    palette.setColor(QPalette::LinkVisited, c.link);
    palette.setColor(QPalette::ToolTipBase, c.base);
    palette.setColor(QPalette::ToolTipText, c.text);
    palette.setColor(QPalette::PlaceholderText, c.mutedText);
    if (appearance.highContrast())
        palette.setColor(QPalette::Mid, c.text); // frames and separators drawn in the text's colour
    for (const auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        palette.setColor(QPalette::Disabled, role,
                         appearance.highContrast() ? c.mutedText : c.mutedText.darker(130));
    return palette;
}

QColor adaptBackground(const QColor& designed, const Appearance& appearance) {
    if (!designed.isValid() || !appearance.dark()) return designed;
    return turnedOver(designed, appearance);
}

QColor adaptForeground(const QColor& designed, const QColor& background, const Appearance& appearance) {
    if (!designed.isValid() || designed.alpha() == 0) return designed;
    if (!appearance.dark() && !appearance.highContrast()) return designed;
    const QColor colour = appearance.dark() && isGrey(designed) ? turnedOver(designed, appearance) : designed;
    return withContrast(colour, background, appearance.highContrast() ? 7.0 : 4.5);
}

QColor withContrast(const QColor& colour, const QColor& background, double ratio) {
    const bool lighten = relativeLuminance(background) < 0.18;
    QColor result = colour;
    for (int lightness = colour.lightness(); contrastRatio(result, background) < ratio;) {
        lightness += lighten ? 6 : -6;
        if (lightness <= 0 || lightness >= 255) return withLightness(colour, lighten ? 255 : 0);
        result = withLightness(colour, lightness);
    }
    return result;
}

double contrastRatio(const QColor& a, const QColor& b) {
    const double la = relativeLuminance(a), lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QString themeName(Theme theme) {
    return theme == Theme::Dark ? QStringLiteral("dark") : QStringLiteral("light");
}

Theme themeFromName(const QString& name) {
    return name == QLatin1String("dark") ? Theme::Dark : Theme::Light;
}

void setTone(QWidget* widget, Tone tone) {
    widget->setProperty(kTone, static_cast<int>(tone));
    applyTone(widget, tone);
}

void setBanner(QWidget* widget, Banner banner, int padding) {
    widget->setProperty(kBanner, static_cast<int>(banner));
    widget->setProperty(kBannerPadding, padding);
    applyBanner(widget, currentAppearance());
}

const Appearance& currentAppearance() {
    return current();
}

QFont baseFont() {
    return initial().font;
}

void scaleOwnFonts(QWidget* root, double scale) {
    scaleOwnFont(root, scale);
    for (QWidget* widget : root->findChildren<QWidget*>())
        scaleOwnFont(widget, scale);
}

void applyAppearance(const Appearance& appearance) {
    initial(); // remember the desktop's look before changing it
    static NewWidgetFonts* newWidgets = [] {
        auto* filter = new NewWidgetFonts(qApp);
        qApp->installEventFilter(filter);
        return filter;
    }();
    Q_UNUSED(newWidgets);
    current() = appearance;
    // Fusion draws with the palette everywhere; the desktop's own style stays for the plain light theme.
    const bool plain = !appearance.dark() && !appearance.highContrast();
    const QString style = plain ? initial().style : QStringLiteral("fusion");
    if (!style.isEmpty() && QApplication::style()->name().compare(style, Qt::CaseInsensitive) != 0)
        QApplication::setStyle(style);
    QApplication::setPalette(paletteOf(appearance));
    QApplication::setFont(scaledFont(baseFont(), appearance.fontScale()));
    for (const auto& [name, font] : initial().classFonts)
        QApplication::setFont(scaledFont(font, appearance.fontScale()), name);
    for (QWidget* window : QApplication::topLevelWidgets())
        refresh(window, appearance);
}
