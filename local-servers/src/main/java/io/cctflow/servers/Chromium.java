package io.cctflow.servers;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Function;
import javax.imageio.ImageIO;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium driven by Debian's chromedriver, for the web UI's browser tests and
 * benchmarks: both by explicit path (system properties {@code cctflow.chromium} and {@code
 * cctflow.chromedriver}, defaults {@code /usr/bin/...}), so Selenium Manager never downloads a
 * browser or driver; a fresh profile directory per browser, removed on {@link #close}. Not thread
 * safe: one test or benchmark drives it. Needs Selenium on the class path (an optional dependency
 * of this module: its users declare {@code selenium-chrome-driver} and {@code selenium-support}).
 */
public final class Chromium implements AutoCloseable {
    public static final Path BINARY = Path.of(System.getProperty("cctflow.chromium", "/usr/bin/chromium"));
    public static final Path DRIVER = Path.of(System.getProperty("cctflow.chromedriver", "/usr/bin/chromedriver"));

    private final ChromeDriver driver;
    private final Path profile;

    /** Starts a headless browser with a window of {@code width} by {@code height} CSS pixels at scale 1. */
    public Chromium(int width, int height) {
        if (!Files.isExecutable(BINARY) || !Files.isExecutable(DRIVER)) {
            throw new IllegalStateException("browser tests need Debian's chromium and chromium-driver at " + BINARY
                    + " and " + DRIVER + ": apt-get install chromium chromium-driver");
        }
        try {
            profile = Files.createTempDirectory("cctflow-chromium");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BINARY.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--user-data-dir=" + profile, "--window-size=" + width + "," + height,
                "--force-device-scale-factor=1");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort().build();
        driver = new ChromeDriver(service, options);
    }

    public ChromeDriver driver() {
        return driver;
    }

    /** Waits up to {@code seconds} for a condition to give a value other than null or false, naming it on time-out. */
    public <T> T until(String what, int seconds, Function<WebDriver, T> condition) {
        return new WebDriverWait(driver, Duration.ofSeconds(seconds)).withMessage(what).until(condition);
    }

    public Object js(String script, Object... args) {
        return driver.executeScript(script, args);
    }

    /** Saves a screenshot and returns how many distinct colours it has (a blank page has one or two). */
    public int screenshot(Path file) {
        byte[] png = driver.getScreenshotAs(OutputType.BYTES);
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.write(file, png);
            BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
            Set<Integer> colours = new HashSet<>();
            for (int y = 0; y < image.getHeight(); y += 3) {
                for (int x = 0; x < image.getWidth(); x += 3) {
                    colours.add(image.getRGB(x, y));
                }
            }
            return colours.size();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        driver.quit();
        try (var files = Files.walk(profile)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind is harmless
        }
    }
}
