/*M!999999\- enable the sandbox mode */ 
-- MariaDB dump 10.19  Distrib 10.11.19-MariaDB, for debian-linux-gnu (x86_64)
--
-- Host: localhost    Database: aware
-- ------------------------------------------------------
-- Server version	10.11.19-MariaDB-0+deb12u1

/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
/*!40101 SET @OLD_CHARACTER_SET_RESULTS=@@CHARACTER_SET_RESULTS */;
/*!40101 SET @OLD_COLLATION_CONNECTION=@@COLLATION_CONNECTION */;
/*!40101 SET NAMES utf8mb4 */;
/*!40103 SET @OLD_TIME_ZONE=@@TIME_ZONE */;
/*!40103 SET TIME_ZONE='+00:00' */;
/*!40014 SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0 */;
/*!40014 SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0 */;
/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO' */;
/*!40111 SET @OLD_SQL_NOTES=@@SQL_NOTES, SQL_NOTES=0 */;

--
-- Table structure for table `applications_foreground`
--

DROP TABLE IF EXISTS `applications_foreground`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE `applications_foreground` (
  `_id` int(11) NOT NULL AUTO_INCREMENT,
  `timestamp` double DEFAULT 0,
  `device_id` varchar(150) DEFAULT '',
  `package_name` text DEFAULT NULL,
  `application_name` text DEFAULT NULL,
  `is_system_app` int(11) DEFAULT 0,
  PRIMARY KEY (`_id`),
  KEY `time_device` (`timestamp`,`device_id`)
) ENGINE=InnoDB AUTO_INCREMENT=8 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci;
/*!40101 SET character_set_client = @saved_cs_client */;

--
-- Dumping data for table `applications_foreground`
--

LOCK TABLES `applications_foreground` WRITE;
/*!40000 ALTER TABLE `applications_foreground` DISABLE KEYS */;
INSERT INTO `applications_foreground` (`_id`, `timestamp`, `device_id`, `package_name`, `application_name`, `is_system_app`) VALUES (1,1710136804120,'4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11','com.google.android.apps.nexuslauncher','Pixel Launcher',1);
INSERT INTO `applications_foreground` (`_id`, `timestamp`, `device_id`, `package_name`, `application_name`, `is_system_app`) VALUES (2,1710136809880,'4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11','fi.yle.areena','Yle Areena, TV: O\'Reilly \"Live\" \\ Beta',0);
INSERT INTO `applications_foreground` (`_id`, `timestamp`, `device_id`, `package_name`, `application_name`, `is_system_app`) VALUES (3,1710136950310,'4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11','com.google.android.inputmethod.latin','Gboard',1);
INSERT INTO `applications_foreground` (`_id`, `timestamp`, `device_id`, `package_name`, `application_name`, `is_system_app`) VALUES (4,1710136958020,'4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11','fi.yle.areena','Yle Areena, TV: O\'Reilly \"Live\" \\ Beta',0);
INSERT INTO `applications_foreground` (`_id`, `timestamp`, `device_id`, `package_name`, `application_name`, `is_system_app`) VALUES (5,1710137105000,'4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11','com.google.android.apps.nexuslauncher','Pixel Launcher',1);
INSERT INTO `applications_foreground` (`_id`, `timestamp`, `device_id`, `package_name`, `application_name`, `is_system_app`) VALUES (6,1710137107500,'4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11','com.spotify.music','Spotify',0);
INSERT INTO `applications_foreground` (`_id`, `timestamp`, `device_id`, `package_name`, `application_name`, `is_system_app`) VALUES (7,1710155742000,'4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11','com.spotify.music','Spotify',0);
/*!40000 ALTER TABLE `applications_foreground` ENABLE KEYS */;
UNLOCK TABLES;

--
-- Table structure for table `aware_device`
--

DROP TABLE IF EXISTS `aware_device`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE `aware_device` (
  `_id` int(11) NOT NULL AUTO_INCREMENT,
  `timestamp` double DEFAULT 0,
  `device_id` varchar(150) DEFAULT '',
  `board` text DEFAULT NULL,
  `brand` text DEFAULT NULL,
  `label` text DEFAULT NULL,
  PRIMARY KEY (`_id`)
) ENGINE=InnoDB AUTO_INCREMENT=2 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci;
/*!40101 SET character_set_client = @saved_cs_client */;

--
-- Dumping data for table `aware_device`
--

LOCK TABLES `aware_device` WRITE;
/*!40000 ALTER TABLE `aware_device` DISABLE KEYS */;
INSERT INTO `aware_device` (`_id`, `timestamp`, `device_id`, `board`, `brand`, `label`) VALUES (1,1710104400000,'4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11','oriole','google','participant 1; (pilot)');
/*!40000 ALTER TABLE `aware_device` ENABLE KEYS */;
UNLOCK TABLES;

--
-- Table structure for table `battery`
--

DROP TABLE IF EXISTS `battery`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE `battery` (
  `_id` int(11) NOT NULL AUTO_INCREMENT,
  `timestamp` double DEFAULT 0,
  `device_id` varchar(150) DEFAULT '',
  `battery_status` int(11) DEFAULT 0,
  `battery_level` int(11) DEFAULT 0,
  `battery_scale` int(11) DEFAULT 0,
  `battery_voltage` int(11) DEFAULT 0,
  `battery_temperature` int(11) DEFAULT 0,
  `battery_adaptor` int(11) DEFAULT 0,
  `battery_health` int(11) DEFAULT 0,
  `battery_technology` text DEFAULT NULL,
  PRIMARY KEY (`_id`),
  KEY `time_device` (`timestamp`,`device_id`)
) ENGINE=InnoDB AUTO_INCREMENT=6 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci;
/*!40101 SET character_set_client = @saved_cs_client */;

--
-- Dumping data for table `battery`
--

LOCK TABLES `battery` WRITE;
/*!40000 ALTER TABLE `battery` DISABLE KEYS */;
INSERT INTO `battery` (`_id`, `timestamp`, `device_id`, `battery_status`, `battery_level`, `battery_scale`, `battery_voltage`, `battery_temperature`, `battery_adaptor`, `battery_health`, `battery_technology`) VALUES (1,1710104400000,'4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11',2,81,100,4250,27,2,2,'Li-ion');
INSERT INTO `battery` (`_id`, `timestamp`, `device_id`, `battery_status`, `battery_level`, `battery_scale`, `battery_voltage`, `battery_temperature`, `battery_adaptor`, `battery_health`, `battery_technology`) VALUES (2,1710130000000,'4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11',5,100,100,4380,26,2,2,'Li-ion');
INSERT INTO `battery` (`_id`, `timestamp`, `device_id`, `battery_status`, `battery_level`, `battery_scale`, `battery_voltage`, `battery_temperature`, `battery_adaptor`, `battery_health`, `battery_technology`) VALUES (3,1710136700000,'4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11',3,100,100,4370,26,0,2,'Li-ion');
INSERT INTO `battery` (`_id`, `timestamp`, `device_id`, `battery_status`, `battery_level`, `battery_scale`, `battery_voltage`, `battery_temperature`, `battery_adaptor`, `battery_health`, `battery_technology`) VALUES (4,1710137300000,'4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11',3,99,100,4360,28,0,2,'Li-ion');
INSERT INTO `battery` (`_id`, `timestamp`, `device_id`, `battery_status`, `battery_level`, `battery_scale`, `battery_voltage`, `battery_temperature`, `battery_adaptor`, `battery_health`, `battery_technology`) VALUES (5,1710155000000,'4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11',3,99,100,4340,28,0,2,'Li-ion');
/*!40000 ALTER TABLE `battery` ENABLE KEYS */;
UNLOCK TABLES;

--
-- Table structure for table `locations`
--

DROP TABLE IF EXISTS `locations`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE `locations` (
  `_id` int(11) NOT NULL AUTO_INCREMENT,
  `timestamp` double DEFAULT 0,
  `device_id` varchar(150) DEFAULT '',
  `double_latitude` double DEFAULT NULL,
  `double_longitude` double DEFAULT NULL,
  `provider` text DEFAULT NULL,
  PRIMARY KEY (`_id`)
) ENGINE=InnoDB AUTO_INCREMENT=3 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci;
/*!40101 SET character_set_client = @saved_cs_client */;

--
-- Dumping data for table `locations`
--

LOCK TABLES `locations` WRITE;
/*!40000 ALTER TABLE `locations` DISABLE KEYS */;
INSERT INTO `locations` (`_id`, `timestamp`, `device_id`, `double_latitude`, `double_longitude`, `provider`) VALUES (1,1710136800000,'4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11',60.1699,24.9384,'fused');
INSERT INTO `locations` (`_id`, `timestamp`, `device_id`, `double_latitude`, `double_longitude`, `provider`) VALUES (2,1710137400000,'4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11',60.1702,24.9411,NULL);
/*!40000 ALTER TABLE `locations` ENABLE KEYS */;
UNLOCK TABLES;

--
-- Table structure for table `network`
--

DROP TABLE IF EXISTS `network`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE `network` (
  `_id` int(11) NOT NULL AUTO_INCREMENT,
  `timestamp` double DEFAULT 0,
  `device_id` varchar(150) DEFAULT '',
  `network_type` int(11) DEFAULT 0,
  `network_subtype` text DEFAULT NULL,
  `network_state` int(11) DEFAULT 0,
  PRIMARY KEY (`_id`),
  KEY `time_device` (`timestamp`,`device_id`)
) ENGINE=InnoDB AUTO_INCREMENT=6 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci;
/*!40101 SET character_set_client = @saved_cs_client */;

--
-- Dumping data for table `network`
--

LOCK TABLES `network` WRITE;
/*!40000 ALTER TABLE `network` DISABLE KEYS */;
INSERT INTO `network` (`_id`, `timestamp`, `device_id`, `network_type`, `network_subtype`, `network_state`) VALUES (1,1710104400000,'4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11',1,'WIFI',1);
INSERT INTO `network` (`_id`, `timestamp`, `device_id`, `network_type`, `network_subtype`, `network_state`) VALUES (2,1710104400500,'4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11',2,'BLUETOOTH',1);
INSERT INTO `network` (`_id`, `timestamp`, `device_id`, `network_type`, `network_subtype`, `network_state`) VALUES (3,1710136900000,'4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11',4,'LTE',1);
INSERT INTO `network` (`_id`, `timestamp`, `device_id`, `network_type`, `network_subtype`, `network_state`) VALUES (4,1710136905000,'4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11',1,'WIFI',0);
INSERT INTO `network` (`_id`, `timestamp`, `device_id`, `network_type`, `network_subtype`, `network_state`) VALUES (5,1710155700000,'4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11',1,'WIFI',1);
/*!40000 ALTER TABLE `network` ENABLE KEYS */;
UNLOCK TABLES;

--
-- Table structure for table `screen`
--

DROP TABLE IF EXISTS `screen`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE `screen` (
  `_id` int(11) NOT NULL AUTO_INCREMENT,
  `timestamp` double DEFAULT 0,
  `device_id` varchar(150) DEFAULT '',
  `screen_status` int(11) DEFAULT 0,
  PRIMARY KEY (`_id`),
  KEY `time_device` (`timestamp`,`device_id`)
) ENGINE=InnoDB AUTO_INCREMENT=7 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci;
/*!40101 SET character_set_client = @saved_cs_client */;

--
-- Dumping data for table `screen`
--

LOCK TABLES `screen` WRITE;
/*!40000 ALTER TABLE `screen` DISABLE KEYS */;
INSERT INTO `screen` (`_id`, `timestamp`, `device_id`, `screen_status`) VALUES (1,1710136800000,'4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11',1);
INSERT INTO `screen` (`_id`, `timestamp`, `device_id`, `screen_status`) VALUES (2,1710136802500,'4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11',3);
INSERT INTO `screen` (`_id`, `timestamp`, `device_id`, `screen_status`) VALUES (3,1710137400000,'4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11',0);
INSERT INTO `screen` (`_id`, `timestamp`, `device_id`, `screen_status`) VALUES (4,1710137400100,'4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11',2);
INSERT INTO `screen` (`_id`, `timestamp`, `device_id`, `screen_status`) VALUES (5,1710155740000,'4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11',1);
INSERT INTO `screen` (`_id`, `timestamp`, `device_id`, `screen_status`) VALUES (6,1710156100000,'4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11',0);
/*!40000 ALTER TABLE `screen` ENABLE KEYS */;
UNLOCK TABLES;

--
-- Table structure for table `timezone`
--

DROP TABLE IF EXISTS `timezone`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE `timezone` (
  `_id` int(11) NOT NULL AUTO_INCREMENT,
  `timestamp` double DEFAULT 0,
  `device_id` varchar(150) DEFAULT '',
  `timezone_id` text DEFAULT NULL,
  PRIMARY KEY (`_id`),
  KEY `time_device` (`timestamp`,`device_id`)
) ENGINE=InnoDB AUTO_INCREMENT=2 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci;
/*!40101 SET character_set_client = @saved_cs_client */;

--
-- Dumping data for table `timezone`
--

LOCK TABLES `timezone` WRITE;
/*!40000 ALTER TABLE `timezone` DISABLE KEYS */;
INSERT INTO `timezone` (`_id`, `timestamp`, `device_id`, `timezone_id`) VALUES (1,1710104400000,'4b5e0c1a-7c2d-4f7e-9d3e-2a6b8f1c0d11','Europe/Helsinki');
/*!40000 ALTER TABLE `timezone` ENABLE KEYS */;
UNLOCK TABLES;
/*!40103 SET TIME_ZONE=@OLD_TIME_ZONE */;

/*!40101 SET SQL_MODE=@OLD_SQL_MODE */;
/*!40014 SET FOREIGN_KEY_CHECKS=@OLD_FOREIGN_KEY_CHECKS */;
/*!40014 SET UNIQUE_CHECKS=@OLD_UNIQUE_CHECKS */;
/*!40101 SET CHARACTER_SET_CLIENT=@OLD_CHARACTER_SET_CLIENT */;
/*!40101 SET CHARACTER_SET_RESULTS=@OLD_CHARACTER_SET_RESULTS */;
/*!40101 SET COLLATION_CONNECTION=@OLD_COLLATION_CONNECTION */;
/*!40111 SET SQL_NOTES=@OLD_SQL_NOTES */;

-- Dump completed
