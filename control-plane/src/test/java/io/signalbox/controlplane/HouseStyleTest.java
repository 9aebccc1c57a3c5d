package io.signalbox.controlplane;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.grpc.Status;
import java.time.Clock;
import java.util.concurrent.ThreadFactory;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The house style's rules that the compiler cannot check and that a review missed before (see
 * STYLE.md), held against Signalbox's compiled main classes. Each rule says the bug it prevents.
 */
class HouseStyleTest {

  private static final JavaClasses MAIN = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
      .importPackages("io.signalbox.controlplane");

  @Test
  void timeComesFromAnInjectedClock() {
    noClasses().that().resideOutsideOfPackage("io.signalbox.controlplane.cli..")
        .should().callMethod(Instant.class, "now")
        .orShould().callMethod(System.class, "currentTimeMillis")
        .orShould().callMethod(Clock.class, "systemUTC")
        .orShould().callMethod(Clock.class, "systemDefaultZone")
        .because("only the commands that compose a server choose the clock; everything else takes one, so tests "
            + "can drive time and a deadline is never read from two clocks")
        .check(MAIN);
  }

  @Test
  void grpcStatusesAreChosenAtTheStreamEdge() {
    noClasses().that().resideOutsideOfPackage("io.signalbox.controlplane.xds..")
        .and().haveNameNotMatching("io\\.signalbox\\.controlplane\\.telemetry\\.LoadReportService(\\$.*)?")
        .should().dependOnClassesThat().areAssignableTo(Status.class)
        .because("what a client is told when its stream is refused is decided in one place, the ADS and LRS edges")
        .check(MAIN);
  }

  @Test
  void namesSayWhatAClassIsNotThatItExists() {
    noClasses().should().haveSimpleNameEndingWith("Impl")
        .orShould().haveSimpleNameEndingWith("Manager")
        .orShould().haveSimpleNameEndingWith("Helper")
        .orShould().haveSimpleNameEndingWith("Util")
        .orShould().haveSimpleNameEndingWith("Utils")
        .orShould().haveSimpleNameStartingWith("Base")
        .orShould().haveSimpleNameStartingWith("Common")
        .because("interfaces name a role and implementations their mechanism (STYLE.md, Names)")
        .check(MAIN);
  }

  @Test
  void fakesLiveInTests() {
    noClasses().should().haveSimpleNameStartingWith("Fake")
        .orShould().haveSimpleNameStartingWith("Recording")
        .because("test doubles in src/main ship to operators and tempt production code to use them")
        .check(MAIN);
  }

  @Test
  void threadsAreMadeOneWay() {
    noClasses().that().resideOutsideOfPackage("io.signalbox.controlplane.cli..")
        .should().callConstructorWhere(com.tngtech.archunit.core.domain.JavaConstructorCall.Predicates.target(
            com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner(assignableTo(Thread.class))))
        .orShould().implement(ThreadFactory.class)
        .because("every thread is made by Guava's ThreadFactoryBuilder with a name docs/architecture.md's thread "
            + "table lists (ThreadTableTest); 24 hand-written daemon factories named threads 24 ways (issue 41). "
            + "The commands' shutdown hooks are the exception")
        .check(MAIN);
  }
}
